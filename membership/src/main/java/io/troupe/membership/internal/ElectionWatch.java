package io.troupe.membership.internal;

import io.aeron.cluster.ElectionState;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.LongSupplier;

/**
 * Logs each step of this voter's elections, as its consensus module counts them, with how long the step before took:
 * an election that does not end within a member's lease stops every member, and its log is where an operator (or
 * a failed chaos run) sees which step it waited in. The first {@value #STEPS_LOGGED} steps of an election are logged
 * one by one, then a summary every 10 s, so one that never ends does not flood the log. Runs on the membership
 * client's thread, which stops before the voter closes; reading the counter costs one volatile read per duty cycle.
 */
public final class ElectionWatch implements Agent
{
    private static final Logger LOG = LoggerFactory.getLogger(ElectionWatch.class);

    /** Steps of one election logged one by one; after them, a summary every {@link #SUMMARY_INTERVAL_NS}. */
    static final int STEPS_LOGGED = 20;
    private static final long SUMMARY_INTERVAL_NS = 10_000_000_000L;
    private static final long CLOSED = ElectionState.CLOSED.code();

    private final LongSupplier electionState;
    private final int nodeId;
    private final NanoClock clock;
    private long state = -1;
    private long sinceNs;
    private long electionStartNs;
    private long linesLogged;
    private int steps;
    private int stepsUnlogged;
    private long lastSummaryNs;

    /**
     * A watch of one voter.
     *
     * @param electionState reads the voter's election state ({@link Voter#electionState}).
     * @param nodeId        its node's id, for the log.
     * @param clock         the clock of the steps' durations.
     */
    public ElectionWatch(final LongSupplier electionState, final int nodeId, final NanoClock clock)
    {
        this.electionState = electionState;
        this.nodeId = nodeId;
        this.clock = clock;
        this.sinceNs = clock.nanoTime();
        this.electionStartNs = sinceNs;
    }

    @Override
    public int doWork()
    {
        final long now = electionState.getAsLong();
        if (now == state)
        {
            return 0;
        }
        final long nowNs = clock.nanoTime();
        if (state >= 0)
        {
            log(now, nowNs);
        }
        state = now;
        sinceNs = nowNs;
        return 1;
    }

    /** One step: logged while the election is young, then summed up (one that never ends would flood the log). */
    private void log(final long now, final long nowNs)
    {
        if (state == CLOSED)
        {
            electionStartNs = sinceNs;
            steps = 0;
            stepsUnlogged = 0;
        }
        steps++;
        if (steps <= STEPS_LOGGED || now == CLOSED)
        {
            LOG.info("membership: voter {} election {} -> {} (after {} ms){}", nodeId, name(state), name(now),
                (nowNs - sinceNs) / 1_000_000, now == CLOSED ? "; it took " + (nowNs - electionStartNs) / 1_000_000 +
                " ms in " + steps + " steps" : "");
            lastSummaryNs = nowNs;
            linesLogged++;
        }
        else if (nowNs - lastSummaryNs >= SUMMARY_INTERVAL_NS)
        {
            LOG.warn("membership: voter {}'s election has run {} ms, {} steps ({} not logged since the last line); " +
                "now {}", nodeId, (nowNs - electionStartNs) / 1_000_000, steps, stepsUnlogged + 1, name(now));
            lastSummaryNs = nowNs;
            linesLogged++;
            stepsUnlogged = 0;
        }
        else
        {
            stepsUnlogged++;
        }
    }

    private static String name(final long code)
    {
        try
        {
            return ElectionState.get(code).name();
        }
        catch (final RuntimeException ex)
        {
            return Long.toString(code);
        }
    }

    /**
     * The lines it has logged.
     *
     * @return the count.
     */
    long linesLogged()
    {
        return linesLogged;
    }

    @Override
    public String roleName()
    {
        return "troupe-election-watch-" + nodeId;
    }
}
