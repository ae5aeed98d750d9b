package io.troupe.serialization.wire;

import io.troupe.serialization.internal.sbe.ChunkDecoder;
import org.agrona.MutableDirectBuffer;

/**
 * A received chunk: one slice of a frame too large for one transport message. The slices of a frame arrive
 * in order on one stream; the receiver puts them together and decodes the whole frame.
 */
public final class ChunkFrame extends Frame
{
    private final ChunkDecoder decoder = new ChunkDecoder();

    ChunkFrame()
    {
    }

    @Override
    void onWrap()
    {
        decoder.wrap(buffer, blockOffset, blockLength, version);
    }

    /**
     * Length of the whole frame the slices make up.
     *
     * @return bytes.
     */
    public int totalLength()
    {
        return decoder.totalLength();
    }

    /**
     * Where this slice goes in the whole frame.
     *
     * @return the offset.
     */
    public int chunkOffset()
    {
        return decoder.chunkOffset();
    }

    /**
     * Where the slice's bytes start in {@link #buffer()}.
     *
     * @return the offset.
     */
    public int bytesOffset()
    {
        return varOffsets[0];
    }

    /**
     * Length of the slice.
     *
     * @return bytes.
     */
    public int bytesLength()
    {
        return varLengths[0];
    }

    /**
     * Copies the slice.
     *
     * @param destination       where to.
     * @param destinationOffset at which offset.
     */
    public void getBytes(final MutableDirectBuffer destination, final int destinationOffset)
    {
        copyVar(0, destination, destinationOffset);
    }
}
