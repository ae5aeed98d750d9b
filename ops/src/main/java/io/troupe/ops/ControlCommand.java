package io.troupe.ops;

import io.troupe.node.counters.NodeCounter;
import io.troupe.actor.SystemCounter;
import io.troupe.node.control.ControlException;
import io.troupe.node.control.ControlProtocol;
import io.troupe.node.counters.CountersFileReader;
import io.troupe.node.counters.NodeState;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;

/**
 * What {@code drain} and {@code stop} share: send the command over the node's control channel (its user only, with
 * the token from its data directory), then, unless {@code --no-wait}, watch the node's counters file until the node
 * has stopped and say how it ended.
 */
abstract class ControlCommand implements Callable<Integer>
{
    /** How long to wait for the node to stop beyond its drain: the interconnect's linger and the goodbye. */
    static final long STOP_GRACE_MS = 30_000;

    @Mixin
    NodeTarget target;

    @Spec
    CommandSpec spec;

    @Option(names = "--no-wait", description = "return once the node has taken the command")
    boolean noWait;

    /** The command line sent, e.g. {@code drain 5000}. */
    abstract String command();

    /** The longest the node may take to stop after it took the command, in ms. */
    abstract long stopWithinMs();

    @Override
    public final Integer call()
    {
        final CountersFileReader before = openForControl(target);
        final String taken = request(target, before, command());
        if (noWait)
        {
            report(before.nodeId(), taken, null);
            return TroupeCli.OK;
        }
        final long deadlineMs = System.currentTimeMillis() + stopWithinMs() + STOP_GRACE_MS;
        CountersFileReader file = before;
        while (file.state() != NodeState.STOPPED && file.processAlive() && System.currentTimeMillis() < deadlineMs)
        {
            LockSupport.parkNanos(50_000_000L);
        }
        if (file.state() != NodeState.STOPPED)
        {
            throw new CliException(TroupeCli.NOT_OK, "node " + before.nodeId() + " took the command (" + taken +
                ") but " + (file.processAlive() ? "has not stopped within " + (stopWithinMs() + STOP_GRACE_MS) +
                " ms" : "its process ended without stopping cleanly"));
        }
        final NodeSnapshot after = new NodeSnapshot(file);
        report(before.nodeId(), taken, after);
        return after.get(NodeCounter.SHUTDOWN_DRAINED) == 1 ? TroupeCli.OK : TroupeCli.NOT_OK;
    }

    /**
     * Opens a running node's counters file for a command that changes it: refused unless the caller may open the
     * node's data directory (its user).
     *
     * @param target the node.
     * @return its counters file.
     * @throws CliException with {@link TroupeCli#NOT_OK} if refused, {@link TroupeCli#UNREACHABLE} if the node does
     *                      not run.
     */
    static CountersFileReader openForControl(final NodeTarget target)
    {
        final Path dataDir = target.dataDir();
        if (Files.isDirectory(dataDir) && !(Files.isReadable(dataDir) && Files.isExecutable(dataDir)))
        {
            throw new CliException(TroupeCli.NOT_OK, "refused: only the node's user may control it (" + dataDir +
                " is not open to " + System.getProperty("user.name") + ")");
        }
        final CountersFileReader file = target.open();
        if (file.state() == NodeState.STOPPED || !file.processAlive())
        {
            throw new CliException(TroupeCli.UNREACHABLE, "node " + file.nodeId() + " is not running (its counters " +
                "file says " + (file.processAlive() ? "stopped" : "its process " + file.pid() + " is gone") + ")");
        }
        return file;
    }

    /**
     * Sends one command over the node's control channel.
     *
     * @param target  the node.
     * @param before  its counters file ({@link #openForControl}).
     * @param command the command line.
     * @return what the node said after {@code ok}.
     * @throws CliException with {@link TroupeCli#NOT_OK} if refused or the node answers an error,
     *                      {@link TroupeCli#UNREACHABLE} if the node does not answer.
     */
    static String request(final NodeTarget target, final CountersFileReader before, final String command)
    {
        final Path dataDir = target.dataDir();
        final String answer;
        try
        {
            answer = ControlProtocol.request(dataDir, command, 5_000);
        }
        catch (final ControlException ex)
        {
            throw new CliException(ex.refused() ? TroupeCli.NOT_OK : TroupeCli.UNREACHABLE, ex.getMessage());
        }
        if (!answer.startsWith("ok"))
        {
            throw new CliException(TroupeCli.NOT_OK, "node " + before.nodeId() + " says: " +
                answer.replaceFirst("^error ", ""));
        }
        return answer.substring(2).strip();
    }

    private void report(final int nodeId, final String taken, final NodeSnapshot after)
    {
        final PrintWriter out = spec.commandLine().getOut();
        if (target.json)
        {
            final Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("nodeId", nodeId);
            doc.put("command", command().split(" ")[0]);
            doc.put("taken", taken);
            doc.put("stopped", after != null);
            if (after != null)
            {
                doc.put("drained", after.get(NodeCounter.SHUTDOWN_DRAINED) == 1);
                doc.put("undeliveredNoticesToOtherNodes", after.get(NodeCounter.REMOTE_NOTICES_SENT));
                doc.put("deadLetters", after.get(SystemCounter.DEAD_LETTERS));
            }
            out.println(Json.write(doc));
        }
        else
        {
            out.println("node " + nodeId + ": " + taken);
            if (after != null)
            {
                out.println("node " + nodeId + " stopped: " + (after.get(NodeCounter.SHUTDOWN_DRAINED) == 1 ?
                    "drained" : "the drain deadline passed; what was left ended as Undelivered(SHUTDOWN)") +
                    "; Undelivered notices sent to other nodes " + after.get(NodeCounter.REMOTE_NOTICES_SENT) +
                    ", dead letters " + after.get(SystemCounter.DEAD_LETTERS));
            }
        }
        out.flush();
    }
}
