package io.troupe.serialization.wire;

import io.troupe.serialization.internal.sbe.HeartbeatDecoder;

/**
 * A received heartbeat. Since schema version 2 it echoes the last heartbeat its sender received from us, so we
 * can measure the round trip on our own clock: {@code now - echoTimeNs() - echoDelayNs()}.
 */
public final class HeartbeatFrame extends Frame
{
    private final HeartbeatDecoder decoder = new HeartbeatDecoder();

    HeartbeatFrame()
    {
    }

    @Override
    void onWrap()
    {
        decoder.wrap(buffer, blockOffset, blockLength, version);
    }

    /**
     * The sender's incarnation.
     *
     * @return the value.
     */
    public long incarnation()
    {
        return decoder.incarnation();
    }

    /**
     * The sender's clock when it sent the heartbeat, in nanoseconds.
     *
     * @return the value.
     */
    public long sendTimeNs()
    {
        return decoder.sendTimeNs();
    }

    /**
     * The heartbeat's sequence number.
     *
     * @return the value.
     */
    public long sequence()
    {
        return decoder.sequence();
    }

    /**
     * The sender's node id.
     *
     * @return the value.
     */
    public int nodeId()
    {
        return decoder.nodeId();
    }

    /**
     * The {@code sendTimeNs} of the last heartbeat the sender received from us: a time on our clock.
     *
     * @return the value, 0 if the sender had received none in this session or wrote a version without it (1).
     */
    public long echoTimeNs()
    {
        return version >= HeartbeatDecoder.echoTimeNsSinceVersion() ? decoder.echoTimeNs() : 0;
    }

    /**
     * How long before sending this heartbeat its sender received the one it echoes, on the sender's clock.
     *
     * @return nanoseconds, 0 if there is no echo or the sender wrote a version without it (1).
     */
    public long echoDelayNs()
    {
        return version >= HeartbeatDecoder.echoDelayNsSinceVersion() ? decoder.echoDelayNs() : 0;
    }
}
