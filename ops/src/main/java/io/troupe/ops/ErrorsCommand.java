package io.troupe.ops;

import io.troupe.node.counters.ErrorRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code troupe errors}: the node's distinct errors, each once, with count, first and last time. */
@Command(name = "errors", description = "the node's distinct errors (agents and handlers): count, first and last " +
    "time, and the stack trace")
final class ErrorsCommand extends ReadCommand
{
    @Option(names = "--brief", description = "one line per error, without stack traces")
    boolean brief;

    @Override
    int run(final NodeSnapshot node)
    {
        final List<ErrorRecord> errors = node.file.errors();
        if (target.json)
        {
            final List<Object> docs = new ArrayList<>();
            for (final ErrorRecord error : errors)
            {
                final Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("count", error.count());
                doc.put("firstEpochMs", error.firstEpochMs());
                doc.put("lastEpochMs", error.lastEpochMs());
                doc.put("summary", error.summary());
                doc.put("text", error.text());
                docs.add(doc);
            }
            final Map<String, Object> doc = node.header();
            doc.put("errors", docs);
            printJson(doc);
            return TroupeCli.OK;
        }
        noteLiveness(node);
        if (errors.isEmpty())
        {
            out().println("no errors");
            return TroupeCli.OK;
        }
        out().println(errors.size() + " distinct error" + (errors.size() == 1 ? "" : "s") + ":");
        for (final ErrorRecord error : errors)
        {
            out().printf("%n%d times, first %s, last %s: %s%n", error.count(),
                Instant.ofEpochMilli(error.firstEpochMs()), Instant.ofEpochMilli(error.lastEpochMs()), error.summary());
            if (!brief)
            {
                out().println(error.text().stripTrailing());
            }
        }
        return TroupeCli.OK;
    }
}
