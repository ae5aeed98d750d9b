package io.troupe.membership.internal;

import io.aeron.cluster.ElectionState;
import org.agrona.concurrent.Agent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs each step of this voter's elections, as its consensus module counts them, with how long the step before took:
 * an election that does not end within a member's lease stops every member, and its log is where an operator (or
 * a failed chaos run) sees which step it waited in. Runs on the membership client's thread, which stops before the
 * voter closes; reading the counter costs one volatile read per duty cycle.
 */
public final class ElectionWatch implements Agent
{
    private static final Logger LOG = LoggerFactory.getLogger(ElectionWatch.class);

    private final Voter voter;
    private final int nodeId;
    private long state = -1;
    private long sinceNs = System.nanoTime();

    /**
     * A watch of one voter.
     *
     * @param voter  the voter.
     * @param nodeId its node's id, for the log.
     */
    public ElectionWatch(final Voter voter, final int nodeId)
    {
        this.voter = voter;
        this.nodeId = nodeId;
    }

    @Override
    public int doWork()
    {
        final long now = voter.electionState();
        if (now == state)
        {
            return 0;
        }
        final long nowNs = System.nanoTime();
        if (state >= 0)
        {
            LOG.info("membership: voter {} election {} -> {} (after {} ms)", nodeId, name(state), name(now),
                (nowNs - sinceNs) / 1_000_000);
        }
        state = now;
        sinceNs = nowNs;
        return 1;
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

    @Override
    public String roleName()
    {
        return "troupe-election-watch-" + nodeId;
    }
}
