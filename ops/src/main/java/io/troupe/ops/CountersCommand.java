package io.troupe.ops;

import io.troupe.node.counters.CounterRecord;
import io.troupe.node.counters.CountersFileReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** {@code troupe counters}: every counter in the node's counters file, like AeronStat; optionally again and again. */
@Command(name = "counters", description = "every counter of the node (id, value, name and labels), read from its " +
    "counters file")
final class CountersCommand extends ReadCommand
{
    @Option(names = "--filter", paramLabel = "REGEX", description = "only counters whose label (name and labels) " +
        "contains a match")
    String filter;

    @Option(names = "--watch", paramLabel = "SECONDS", description = "print again every SECONDS until interrupted " +
        "(--count times if given)")
    Double watchSeconds;

    @Option(names = "--count", paramLabel = "N", description = "with --watch: stop after N prints")
    Integer count;

    @Override
    int run(final NodeSnapshot first)
    {
        final Pattern pattern;
        try
        {
            pattern = filter == null ? null : Pattern.compile(filter);
        }
        catch (final PatternSyntaxException ex)
        {
            throw new CliException(TroupeCli.USAGE, "--filter is not a regular expression: " + ex.getDescription());
        }
        if (watchSeconds != null && (watchSeconds < 0.1 || watchSeconds > 86_400))
        {
            throw new CliException(TroupeCli.USAGE, "--watch takes 0.1 to 86400 seconds");
        }
        if (count != null && (count < 1 || watchSeconds == null))
        {
            throw new CliException(TroupeCli.USAGE, "--count takes 1 or more, with --watch");
        }
        NodeSnapshot node = first;
        for (int printed = 1; ; printed++)
        {
            print(node, pattern);
            if (watchSeconds == null || (count != null && printed >= count))
            {
                return TroupeCli.OK;
            }
            try
            {
                Thread.sleep((long)(watchSeconds * 1000));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return TroupeCli.OK;
            }
            final CountersFileReader file = target.open(); // a restarted node has a new file
            node = new NodeSnapshot(file);
        }
    }

    private void print(final NodeSnapshot node, final Pattern pattern)
    {
        final List<CounterRecord> shown = new ArrayList<>();
        for (final CounterRecord record : node.counters)
        {
            if (pattern == null || pattern.matcher(record.label()).find())
            {
                shown.add(record);
            }
        }
        if (target.json)
        {
            final List<Object> docs = new ArrayList<>();
            for (final CounterRecord record : shown)
            {
                final Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("id", record.id());
                doc.put("typeId", record.typeId());
                doc.put("name", record.name());
                doc.put("kind", record.kind().name().toLowerCase(Locale.ROOT));
                doc.put("labels", record.labels());
                doc.put("value", record.value());
                docs.add(doc);
            }
            final Map<String, Object> doc = node.header();
            doc.put("counters", docs);
            printJson(doc);
            return;
        }
        out().printf("node %d, incarnation %d: %s; published %s ago%n", node.file.nodeId(), node.file.incarnation(),
            node.liveness(), NodeSnapshot.Duration.format(node.heartbeatAgeMs()));
        final Table table = new Table("id", "value", "counter");
        for (final CounterRecord record : shown)
        {
            table.row(record.id(), String.format("%,d", record.value()), record.label());
        }
        table.print(out());
    }
}
