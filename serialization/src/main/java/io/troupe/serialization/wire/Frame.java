package io.troupe.serialization.wire;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * A validated frame as a handler sees it: a flyweight over the received bytes, valid only during the
 * handler call (copy what you keep). Reads never leave the frame: the decoder checked every length first.
 * Owned by the decoding thread.
 */
public abstract class Frame
{
    static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    DirectBuffer buffer;
    /** Offset of the fixed block (just after the message header). */
    int blockOffset;
    int blockLength;
    int version;
    int frameLength;
    final int[] varOffsets = new int[TemplateLayout.MAX_VAR_DATA];
    final int[] varLengths = new int[TemplateLayout.MAX_VAR_DATA];
    int groupOffset;
    int groupCount;
    int groupBlockLength;

    Frame()
    {
    }

    /** Called by the decoder after validation; subclasses wrap their SBE decoder here. */
    void wrap(final DirectBuffer buffer, final int blockOffset, final int blockLength, final int version,
        final int frameLength)
    {
        this.buffer = buffer;
        this.blockOffset = blockOffset;
        this.blockLength = blockLength;
        this.version = version;
        this.frameLength = frameLength;
        onWrap();
    }

    abstract void onWrap();

    /**
     * The schema version the sender wrote.
     *
     * @return the version.
     */
    public int version()
    {
        return version;
    }

    /**
     * Bytes of the whole frame, header included.
     *
     * @return the length.
     */
    public int frameLength()
    {
        return frameLength;
    }

    /**
     * The buffer the frame lies in (for zero-copy reads of variable-length fields).
     *
     * @return the buffer.
     */
    public DirectBuffer buffer()
    {
        return buffer;
    }

    String varString(final int index)
    {
        final int length = varLengths[index];
        return length == 0 ? "" : buffer.getStringWithoutLengthUtf8(varOffsets[index], length);
    }

    byte[] varBytes(final int index)
    {
        final byte[] bytes = new byte[varLengths[index]];
        buffer.getBytes(varOffsets[index], bytes);
        return bytes;
    }

    void copyVar(final int index, final MutableDirectBuffer destination, final int destinationOffset)
    {
        destination.putBytes(destinationOffset, buffer, varOffsets[index], varLengths[index]);
    }

    int entryOffset(final int index)
    {
        if (index < 0 || index >= groupCount)
        {
            throw new IndexOutOfBoundsException("entry " + index + " of " + groupCount);
        }
        return groupOffset + index * groupBlockLength;
    }
}
