package io.troupe.ops;

import io.troupe.broker.BrokerCounter;
import io.troupe.broker.BrokerSpecText;
import io.troupe.node.counters.CounterRecord;
import io.troupe.node.counters.CountersFileReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code troupe broker set NAME --ask POLICY --ask-r POLICY}: new queue policies for a running broker, over the node's
 * control channel; queued requests are kept. Waits until the node's counters show the broker applied it.
 */
@Command(name = "set", description = "give a named broker new queue policies while it runs (queued requests move " +
    "to the new queues in order; meters stay); POLICY is drop(max=N,drop=head|tail,order=fifo|lifo), " +
    "timeout(timeout=500ms,...), codel(target=5ms,interval=100ms,...) or fair(key=client-node,inner=POLICY); " +
    "waits until the broker runs with it")
final class BrokerSetCommand implements Callable<Integer>
{
    /** How long to wait for the counters to show the change, beyond the node's publish interval. */
    static final long APPLY_GRACE_MS = 5_000;

    @Mixin
    NodeTarget target;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "NAME", description = "the broker")
    String name;

    @Option(names = "--ask", paramLabel = "POLICY", description = "the ask side's new policy")
    String ask;

    @Option(names = "--ask-r", paramLabel = "POLICY", description = "the askR side's new policy")
    String askR;

    @Override
    public Integer call()
    {
        if (ask == null && askR == null)
        {
            throw new CliException(TroupeCli.USAGE, "give --ask POLICY, --ask-r POLICY or both");
        }
        final StringBuilder command = new StringBuilder("broker-set ").append(name);
        append(command, "ask", ask);
        append(command, "askR", askR);
        final CountersFileReader file = ControlCommand.openForControl(target);
        final long before = reconfigurations(new NodeSnapshot(file));
        final String taken = ControlCommand.request(target, file, command.toString());
        // the broker applies it after what is queued in its mailbox; the counters show it at the next publish
        final long deadlineMs = System.currentTimeMillis() + file.publishIntervalNs() / 1_000_000 + APPLY_GRACE_MS;
        NodeSnapshot after = new NodeSnapshot(file);
        while (reconfigurations(after) <= before && System.currentTimeMillis() < deadlineMs)
        {
            LockSupport.parkNanos(20_000_000L);
            after = new NodeSnapshot(file);
        }
        final boolean applied = reconfigurations(after) > before;
        final CounterRecord config = after.record(BrokerCounter.BROKER_RECONFIGURATIONS, "broker", name);
        final PrintWriter out = spec.commandLine().getOut();
        if (target.json)
        {
            final Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("nodeId", file.nodeId());
            doc.put("broker", name);
            doc.put("taken", taken);
            doc.put("applied", applied);
            doc.put("config", config == null ? "" : config.description());
            out.println(Json.write(doc));
        }
        else
        {
            out.println("node " + file.nodeId() + ": " + taken);
            out.println(applied ? "broker " + name + " runs with " + config.description() : "broker " + name +
                " has not shown the change in the node's counters yet (is its mailbox backed up?)");
        }
        out.flush();
        return applied ? TroupeCli.OK : TroupeCli.NOT_OK;
    }

    private static void append(final StringBuilder command, final String side, final String policy)
    {
        if (policy == null)
        {
            return;
        }
        final String compact = policy.replace(" ", "");
        try
        {
            BrokerSpecText.parseQueue(compact); // refused here with the same message the node would give
        }
        catch (final IllegalArgumentException ex)
        {
            throw new CliException(TroupeCli.USAGE, "--" + ("ask".equals(side) ? "ask" : "ask-r") + ": " +
                ex.getMessage());
        }
        command.append(' ').append(side).append('=').append(compact);
    }

    private long reconfigurations(final NodeSnapshot node)
    {
        final CounterRecord record = node.record(BrokerCounter.BROKER_RECONFIGURATIONS, "broker", name);
        if (record == null)
        {
            throw new CliException(TroupeCli.NOT_OK, "node " + node.file.nodeId() + " has no broker named '" + name +
                "'");
        }
        return record.value();
    }
}
