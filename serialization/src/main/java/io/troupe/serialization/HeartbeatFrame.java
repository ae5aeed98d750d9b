package io.troupe.serialization;

import io.troupe.serialization.internal.sbe.HeartbeatDecoder;

/**
 * A received heartbeat.
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
}
