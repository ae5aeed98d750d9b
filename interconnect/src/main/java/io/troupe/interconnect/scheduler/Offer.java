package io.troupe.interconnect.scheduler;

import io.troupe.actor.ActorId;

import java.time.Duration;
import java.util.Collections;
import java.util.List;

/**
 * Open channels offered to a {@link Sender}, valid only while its {@link Sender#onOffer} runs: the sender may send
 * on up to {@link #size()} of {@link #channels()} (1 while other senders wait, all of them otherwise, never beyond
 * the node-wide cap). Every send closes its channel until the response (a request) or the timeout (either) comes.
 */
public final class Offer
{
    private final SchedulerCore core;
    private final List<Channel> channels;
    private final int size;
    private int used;
    private boolean valid = true;

    Offer(final SchedulerCore core, final List<Channel> channels, final int size)
    {
        this.core = core;
        this.channels = Collections.unmodifiableList(channels);
        this.size = size;
    }

    /**
     * The open channels, best first: the least loaded peers, then the lowest observed round trip.
     *
     * @return the channels (unmodifiable).
     */
    public List<Channel> channels()
    {
        return channels;
    }

    /**
     * How many channels the sender may close.
     *
     * @return M of the offer's N.
     */
    public int size()
    {
        return size;
    }

    /**
     * How many more it may close.
     *
     * @return the size less what was sent.
     */
    public int remaining()
    {
        return size - used;
    }

    /**
     * Sends a request on a channel: the scheduler assigns its id (the response is routed back by it, as the
     * message's cookie) and calls the receiver exactly once.
     *
     * @param channel  one of {@link #channels()}, still open.
     * @param target   the recipient, on the channel's node (an actor or a {@code ServiceId} of that node).
     * @param request  the request event (it must have a codec on both nodes).
     * @param timeout  after this the receiver fails with {@link RequestFailure#TIMEOUT} and the channel opens again.
     * @param receiver gets the response or the failure.
     * @return the request id.
     * @throws IllegalStateException    if the offer is used up or no longer valid.
     * @throws IllegalArgumentException if the channel is not an open one of this offer, the target is on another
     *                                  node, or the timeout is not positive.
     */
    public long request(final Channel channel, final ActorId target, final Object request, final Duration timeout,
        final Receiver receiver)
    {
        check(channel, target, timeout);
        if (receiver == null)
        {
            throw new IllegalArgumentException("a request needs a receiver");
        }
        used++;
        return core.send(channel, target, request, timeout.toNanos(), receiver);
    }

    /**
     * Sends a notification (no response expected): its channel stays closed for the timeout, the time the peer is
     * given to digest it.
     *
     * @param channel      one of {@link #channels()}, still open.
     * @param target       the recipient, on the channel's node.
     * @param notification the event.
     * @param timeout      how long the channel stays closed.
     * @throws IllegalStateException    if the offer is used up or no longer valid.
     * @throws IllegalArgumentException as for {@link #request}.
     */
    public void notify(final Channel channel, final ActorId target, final Object notification, final Duration timeout)
    {
        check(channel, target, timeout);
        used++;
        core.send(channel, target, notification, timeout.toNanos(), null);
    }

    private void check(final Channel channel, final ActorId target, final Duration timeout)
    {
        if (!valid)
        {
            throw new IllegalStateException("an offer is valid only during the onOffer call it was given to");
        }
        if (used >= size)
        {
            throw new IllegalStateException("the offer is used up: " + size + " channel(s) closed");
        }
        if (!channels.contains(channel) || !core.isOpen(channel))
        {
            throw new IllegalArgumentException(channel + " is not an open channel of this offer");
        }
        if (target == null || target.nodeId() != channel.nodeId())
        {
            throw new IllegalArgumentException("target " + target + " is not on node " + channel.nodeId());
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero())
        {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
    }

    int used()
    {
        return used;
    }

    void invalidate()
    {
        valid = false;
    }
}
