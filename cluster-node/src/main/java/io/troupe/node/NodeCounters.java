package io.troupe.node;

import io.troupe.actor.AgentErrorLog;
import io.troupe.node.counters.CountersFile;
import io.troupe.node.counters.CountersPublisher;
import io.troupe.node.counters.ErrorRecorder;
import io.troupe.node.counters.NodeState;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;

/**
 * A node's counters file, error recorder and counters thread ({@code troupe-counters-<node id>}), which copies the
 * node's counters into the file every {@code troupe.ops.counters-interval}. Made before anything else starts (so the
 * error log sees every agent's errors), started once the node is up, and closed last, after a final copy, leaving the
 * file marked {@link NodeState#STOPPED} for a post-mortem.
 */
public final class NodeCounters implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(NodeCounters.class);

    private final CountersFile file;
    private final ErrorRecorder recorder;
    private final long intervalNs;
    private final int nodeId;
    private CountersPublisher publisher;
    private AgentRunner runner;
    private long incarnation;
    private boolean closed;

    private NodeCounters(final CountersFile file, final long intervalNs, final int nodeId, final long incarnation)
    {
        this.file = file;
        this.recorder = new ErrorRecorder(file.errorLog());
        this.intervalNs = intervalNs;
        this.nodeId = nodeId;
        this.incarnation = incarnation;
    }

    static NodeCounters create(final NodeConfig config, final long incarnation)
    {
        final OpsConfig ops = config.ops();
        final long intervalNs = ops.countersInterval().toNanos();
        return new NodeCounters(CountersFile.create(config.dataDir(), config.nodeId(), incarnation,
            config.interconnectConfig().clusterId(), intervalNs, ops.maxCounters(), ops.errorLogBytes()), intervalNs,
            config.nodeId(), incarnation);
    }

    synchronized void start(final CountersPublisher.Sources sources, final long incarnation)
    {
        this.incarnation = incarnation;
        publisher = new CountersPublisher(file, sources, SystemNanoClock.INSTANCE, SystemEpochClock.INSTANCE,
            intervalNs);
        file.state(NodeState.RUNNING, incarnation);
        publisher.publish(); // the file is complete before the node says it is up
        runner = new AgentRunner(new SleepingIdleStrategy(intervalNs),
            new AgentErrorLog(LOG, "node " + nodeId + ": counters publisher", recorder), null, publisher);
        AgentRunner.startOnThread(runner, runnable ->
        {
            final Thread thread = new Thread(runnable, "troupe-counters-" + nodeId);
            thread.setDaemon(true);
            return thread;
        });
    }

    synchronized void draining()
    {
        file.state(NodeState.DRAINING, incarnation);
    }

    /**
     * The error recorder every agent of the node hands its errors to.
     *
     * @return the recorder.
     */
    public ErrorRecorder recorder()
    {
        return recorder;
    }

    /**
     * The counters file.
     *
     * @return its path.
     */
    public Path path()
    {
        return file.path();
    }

    /**
     * Copies the counters into the file now, rather than at the next interval (tests, and a command that wants
     * the latest figures). Safe from any thread: it waits for the counters thread's copy in progress.
     */
    public synchronized void publishNow()
    {
        if (publisher != null && !closed)
        {
            publisher.publish();
        }
    }

    /** Stops the counters thread, copies the counters a last time, and marks the file stopped. Idempotent. */
    @Override
    public void close()
    {
        final AgentRunner running;
        synchronized (this)
        {
            if (closed)
            {
                return;
            }
            running = runner;
        }
        if (running != null)
        {
            running.close(); // outside the lock: the agent's publish may be waiting for it in publishNow
        }
        synchronized (this)
        {
            if (closed)
            {
                return;
            }
            closed = true;
            if (publisher != null)
            {
                publisher.publish();
            }
            file.close();
        }
    }
}
