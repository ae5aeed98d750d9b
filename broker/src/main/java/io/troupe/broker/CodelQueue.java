package io.troupe.broker;

import io.troupe.actor.ActorId;

import java.util.function.Consumer;

/**
 * The policy of a {@link CodelQueueSpec}: CoDel (RFC 8289) adapted to a broker queue, where a request leaves
 * when a counterparty arrives rather than when a link is free, as Erlang's {@code sbroker_codel_queue} does.
 *
 * <p>RFC 8289 looks at the sojourn of each packet it dequeues. Here the sojourn looked at is the oldest
 * request's (the first to arrive), on {@link #dequeue} before the match is taken and on {@link #expire} (the
 * broker's timer at {@link #nextExpiryNs} and after each batch); with FIFO service the request observed is
 * the one then matched, as in the RFC. The RFC's "at most one MTU left in the queue" check becomes "no more
 * than {@code min} requests queued": CoDel never drops below {@code min}, and reaching it resets the
 * state. Dropping always takes the oldest request, whatever the serve order. On re-entering the dropping
 * state less than 16 intervals after the last scheduled drop, the drop rate resumes from the previous
 * episode's ({@code count - lastCount}, as the RFC's Linux-derived pseudocode does).
 *
 * <p>While dropping, requests whose sojourn exceeds the spec's sojourn limit are dropped at once, oldest
 * first, after the drops the control law makes; they do not add to {@code count}, which paces the control
 * law's own drops only.
 *
 * <p>Single-threaded, owned by its broker.
 */
final class CodelQueue extends ListQueue
{
    private static final int RESUME_INTERVALS = 16;

    private final long targetNs;
    private final long intervalNs;
    /** The sojourn limit while dropping; {@link Long#MAX_VALUE} for none. */
    private final long limitNs;
    private final long resumeWindowNs;
    private final int min;
    private final int max;
    private final DropEnd drop;
    private final ServeOrder order;

    /** Whether the oldest's sojourn has been at or above target since the last observation below it. */
    private boolean aboveTarget;
    /** When the sojourn will have been above target for an interval (RFC 8289 {@code first_above_time}). */
    private long firstAboveNs;
    private boolean dropping;
    private long dropNextNs;
    private int count;
    private int lastCount;

    /**
     * An empty queue.
     *
     * @param spec its configuration.
     */
    CodelQueue(final CodelQueueSpec spec)
    {
        this.targetNs = spec.target().toNanos();
        this.intervalNs = spec.interval().toNanos();
        this.limitNs = spec.sojournLimit().toNanos();
        this.resumeWindowNs = intervalNs > Long.MAX_VALUE / RESUME_INTERVALS ?
            Long.MAX_VALUE : intervalNs * RESUME_INTERVALS;
        this.min = spec.min();
        this.max = spec.max();
        this.drop = spec.drop();
        this.order = spec.order();
    }

    @Override
    public void enqueue(final BrokerRequest request, final long nowNs, final DropSink drops)
    {
        deque.addBounded(request, max, drop, nowNs, drops);
    }

    @Override
    public BrokerRequest dequeue(final long nowNs, final DropSink drops)
    {
        control(nowNs, drops);
        final BrokerRequest request = deque.poll(order);
        resetIfShort();
        return request;
    }

    @Override
    public void expire(final long nowNs, final DropSink drops)
    {
        control(nowNs, drops);
    }

    /**
     * The next time a drop could happen: the next scheduled drop while dropping, or earlier when the oldest
     * request's sojourn will pass the sojourn limit, else the end of the first
     * interval above target once the oldest's sojourn was seen above it, else when the oldest's sojourn
     * reaches target (possibly already past: the state is then due for an update); {@link Long#MAX_VALUE}
     * when no more than {@code min} requests are queued.
     */
    @Override
    public long nextExpiryNs(final long nowNs)
    {
        if (deque.size() <= min)
        {
            return Long.MAX_VALUE;
        }
        if (dropping)
        {
            if (limitNs == Long.MAX_VALUE)
            {
                return dropNextNs;
            }
            // a sojourn strictly greater than the limit drops: 1 ns after the oldest reaches it
            final long overLimitNs = deque.peekFirst().sentNs() + limitNs + 1;
            return overLimitNs - dropNextNs < 0 ? overLimitNs : dropNextNs;
        }
        if (aboveTarget)
        {
            return firstAboveNs;
        }
        return deque.peekFirst().sentNs() + targetNs;
    }

    @Override
    public BrokerRequest cancel(final ActorId requester, final long ref)
    {
        final BrokerRequest request = super.cancel(requester, ref);
        resetIfShort();
        return request;
    }

    @Override
    public void drainTo(final Consumer<BrokerRequest> out)
    {
        super.drainTo(out);
        resetIfShort();
    }

    /**
     * Whether the queue is in CoDel's dropping state (for tests).
     *
     * @return true while dropping.
     */
    boolean isDropping()
    {
        return dropping;
    }

    /**
     * CoDel's drop count, which sets the spacing of drops (for tests).
     *
     * @return the count.
     */
    int dropCount()
    {
        return count;
    }

    /** RFC 8289 {@code dequeue()}, dropping the oldest request in place of the packet it would deliver. */
    private void control(final long nowNs, final DropSink drops)
    {
        final boolean okToDrop = observe(nowNs);
        if (dropping)
        {
            if (!okToDrop)
            {
                dropping = false;
            }
            // several drops may be due at once if the broker called late or the backlog is large
            while (dropping && nowNs - dropNextNs >= 0)
            {
                drops.drop(deque.pollFirst(), nowNs);
                count++;
                if (observe(nowNs))
                {
                    dropNextNs = controlLaw(dropNextNs, count);
                }
                else
                {
                    dropping = false;
                }
            }
        }
        else if (okToDrop)
        {
            drops.drop(deque.pollFirst(), nowNs);
            observe(nowNs);
            dropping = true;
            // if the sojourn rose above target soon after the last episode, resume its drop rate
            final int delta = count - lastCount;
            count = delta > 1 && nowNs - dropNextNs < resumeWindowNs ? delta : 1;
            dropNextNs = controlLaw(nowNs, count);
            lastCount = count;
        }
        if (dropping && limitNs != Long.MAX_VALUE)
        {
            dropOverLimit(nowNs, drops);
        }
    }

    /** While dropping: drops every request whose sojourn exceeds the limit, and leaves if the rest are fast. */
    private void dropOverLimit(final long nowNs, final DropSink drops)
    {
        BrokerRequest oldest = deque.peekFirst();
        boolean dropped = false;
        while (oldest != null && deque.size() > min && oldest.sojournNs(nowNs) > limitNs)
        {
            drops.drop(deque.pollFirst(), nowNs);
            dropped = true;
            oldest = deque.peekFirst();
        }
        if (dropped && !observe(nowNs))
        {
            dropping = false;
        }
    }

    /**
     * RFC 8289 {@code dodequeue()} on the oldest request, without removing it: tracks how long its sojourn
     * has stayed at or above target.
     *
     * @param nowNs the broker's clock.
     * @return true if the sojourn has stayed above target for an interval and a drop keeps more than
     *         {@code min} requests queued.
     */
    private boolean observe(final long nowNs)
    {
        final BrokerRequest oldest = deque.peekFirst();
        if (oldest == null || deque.size() <= min || oldest.sojournNs(nowNs) < targetNs)
        {
            aboveTarget = false;
            return false;
        }
        if (!aboveTarget)
        {
            aboveTarget = true;
            firstAboveNs = nowNs + intervalNs;
            return false;
        }
        return nowNs - firstAboveNs >= 0;
    }

    /** Once no more than {@code min} requests are queued nothing can be dropped: leave the dropping state. */
    private void resetIfShort()
    {
        if (deque.size() <= min)
        {
            aboveTarget = false;
            dropping = false;
        }
    }

    private long controlLaw(final long fromNs, final int dropCount)
    {
        // RFC 8289 control_law: t + interval / sqrt(count)
        return fromNs + (long)(intervalNs / Math.sqrt(dropCount));
    }
}
