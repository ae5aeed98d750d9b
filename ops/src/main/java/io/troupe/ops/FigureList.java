package io.troupe.ops;

import io.troupe.memquota.CounterDescriptor;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/** A command that shows a fixed list of node-wide figures: a two-column table, or a JSON object of them. */
final class FigureList
{
    private FigureList()
    {
    }

    static int print(final ReadCommand command, final NodeSnapshot node, final CounterDescriptor[] shown,
        final String prefix, final String note)
    {
        return print(command, node, shown, prefix, note, doc ->
        {
        }, () ->
        {
        });
    }

    /**
     * The figures, and more: {@code moreJson} adds to the JSON document, {@code moreTable} prints after the table.
     */
    static int print(final ReadCommand command, final NodeSnapshot node, final CounterDescriptor[] shown,
        final String prefix, final String note, final Consumer<Map<String, Object>> moreJson, final Runnable moreTable)
    {
        if (command.target.json)
        {
            final Map<String, Object> figures = new LinkedHashMap<>();
            for (final CounterDescriptor type : shown)
            {
                figures.put(type.metricName(), node.get(type));
            }
            final Map<String, Object> doc = node.header();
            doc.put("figures", figures);
            moreJson.accept(doc);
            command.printJson(doc);
            return TroupeCli.OK;
        }
        command.noteLiveness(node);
        if (note != null)
        {
            command.out().println(note);
        }
        final Table table = new Table("figure", "value", "meaning");
        for (final CounterDescriptor type : shown)
        {
            final String name = type.metricName().startsWith(prefix) ? type.metricName().substring(prefix.length()) :
                type.metricName();
            table.row(name, String.format("%,d", node.get(type)), type.doc());
        }
        table.print(command.out());
        moreTable.run();
        return TroupeCli.OK;
    }
}
