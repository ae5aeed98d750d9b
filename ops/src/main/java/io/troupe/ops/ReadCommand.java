package io.troupe.ops;

import io.troupe.node.counters.CountersFileReader;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** What every read command shares: the node it reads, {@code --json}, and where it prints. */
abstract class ReadCommand implements Callable<Integer>
{
    @Mixin
    NodeTarget target;

    @Spec
    CommandSpec spec;

    PrintWriter out()
    {
        return spec.commandLine().getOut();
    }

    @Override
    public final Integer call()
    {
        final CountersFileReader file = target.open();
        final int code = run(new NodeSnapshot(file));
        out().flush();
        return code;
    }

    /** Prints what the command shows, as a table or, with {@code --json}, one JSON document; returns the exit code. */
    abstract int run(NodeSnapshot node);

    void printJson(final Object document)
    {
        out().println(Json.write(document));
    }

    /** A line above a table when the node is not running: the figures are its last. */
    void noteLiveness(final NodeSnapshot node)
    {
        final String liveness = node.liveness();
        if (!"running".equals(liveness))
        {
            out().println("node " + node.file.nodeId() + " is " + liveness + "; these are its last figures");
        }
    }
}
