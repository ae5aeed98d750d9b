package io.troupe.serialization.wire;

import io.troupe.serialization.internal.sbe.AckDecoder;

/**
 * A received cumulative acknowledgement of tracked events on one stream.
 */
public final class AckFrame extends Frame
{
    private final AckDecoder decoder = new AckDecoder();

    AckFrame()
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
     * Everything up to this position of the stream was received.
     *
     * @return the value.
     */
    public long ackedPosition()
    {
        return decoder.ackedPosition();
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
     * The stream acknowledged.
     *
     * @return the value.
     */
    public int streamId()
    {
        return decoder.streamId();
    }
}
