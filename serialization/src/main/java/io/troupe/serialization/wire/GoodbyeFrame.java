package io.troupe.serialization.wire;

import io.troupe.serialization.internal.sbe.GoodbyeDecoder;

/**
 * A received goodbye: the sender ends the session on purpose.
 */
public final class GoodbyeFrame extends Frame
{
    private final GoodbyeDecoder decoder = new GoodbyeDecoder();

    GoodbyeFrame()
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
     * The sender's node id.
     *
     * @return the value.
     */
    public int nodeId()
    {
        return decoder.nodeId();
    }

    /**
     * Why the session ends.
     *
     * @return the value.
     */
    public GoodbyeReason reason()
    {
        return GoodbyeReason.fromCode(decoder.reasonRaw());
    }

    /**
     * Free text (allocates).
     *
     * @return the value.
     */
    public String detail()
    {
        return varString(0);
    }
}
