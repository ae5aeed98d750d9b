package io.troupe.interconnect;

import io.aeron.AeronCounters;
import io.aeron.Image;
import io.aeron.Subscription;
import org.agrona.concurrent.status.CountersReader;

/**
 * Notices an inbound stream of a peer that has stopped for good: its image stands at one position while the
 * driver has received data beyond it (the receiver's high-water mark is ahead), for longer than the failure
 * timeout. Loss is repaired by retransmission within round trips, so a stream that stands that long is waiting
 * for bytes that can never come: an injected packet of another length took an offset that the genuine frame
 * then found occupied, leaving a hole no retransmission fills. Heartbeats on the control stream keep the
 * session alive meanwhile, so without this the events sent after the hole would wait forever, neither
 * acknowledged nor reported. The agent ends such a session ({@link InterconnectAgent#streamDamaged}); the peer
 * then reports its unacknowledged tracked events and a new session starts on fresh Aeron sessions.
 *
 * <p>The high-water mark is the driver's {@code rcv-hwm} counter of the image, found once per image by its
 * registration id (the image's correlation id) in the counters. Owned by the interconnect agent.
 */
final class StreamStallWatch
{
    /** Where one stream of one peer stood when last looked at. */
    static final class State
    {
        private long imageId = Long.MIN_VALUE;
        private int hwmCounterId = CountersReader.NULL_COUNTER_ID;
        private long position;
        private long sinceNs;

        /** Forgets the image (a new session, or the image went). */
        void reset()
        {
            imageId = Long.MIN_VALUE;
            hwmCounterId = CountersReader.NULL_COUNTER_ID;
        }
    }

    private final CountersReader counters;
    private final long timeoutNs;

    /**
     * @param counters  the Aeron counters (of the driver the node's client talks to).
     * @param timeoutNs how long a stream may stand with data beyond it before it counts as stalled.
     */
    StreamStallWatch(final CountersReader counters, final long timeoutNs)
    {
        this.counters = counters;
        this.timeoutNs = timeoutNs;
    }

    /**
     * Looks at one stream of a peer.
     *
     * @param subscription the stream's subscription.
     * @param sessionId    the peer's Aeron session id.
     * @param state        what was seen of this stream before.
     * @param nowNs        the agent's clock.
     * @return why the stream counts as stalled, or null if it does not.
     */
    String check(final Subscription subscription, final int sessionId, final State state, final long nowNs)
    {
        final Image image = subscription.imageBySessionId(sessionId);
        if (image == null)
        {
            state.reset();
            return null;
        }
        final long position = image.position();
        if (image.correlationId() != state.imageId)
        {
            state.imageId = image.correlationId();
            state.hwmCounterId = StreamCounters.find(counters, AeronCounters.DRIVER_RECEIVER_HWM_TYPE_ID,
                state.imageId);
            state.position = position;
            state.sinceNs = nowNs;
            return null;
        }
        final long highWaterMark = highWaterMark(state);
        if (position != state.position || highWaterMark <= position)
        {
            state.position = position;
            state.sinceNs = nowNs;
            return null;
        }
        final long standingNs = nowNs - state.sinceNs;
        if (standingNs < timeoutNs)
        {
            return null;
        }
        return "stream " + subscription.streamId() + " has stood at position " + position + " for " +
            standingNs / 1_000_000 + " ms with data up to " + highWaterMark + " received beyond it (a hole no " +
            "retransmission fills: bytes of another length took an offset)";
    }

    /** The image's high-water mark, or -1 if its counter is gone (then nothing counts as stalled). */
    private long highWaterMark(final State state)
    {
        final int id = state.hwmCounterId;
        if (!StreamCounters.belongs(counters, id, AeronCounters.DRIVER_RECEIVER_HWM_TYPE_ID, state.imageId))
        {
            state.hwmCounterId = CountersReader.NULL_COUNTER_ID;
            return -1;
        }
        return counters.getCounterValue(id);
    }
}
