package io.troupe.serialization.wire;

import org.agrona.DirectBuffer;
import org.agrona.UnsafeApi;

import java.nio.ByteOrder;

/**
 * Little-endian reads and writes without a bounds check per access, for the envelope hot path only. Every
 * caller has checked the whole range it touches against the buffer's capacity first (the decoder validated
 * the frame, the encoder required room for it); Agrona's per-access checks would repeat that check a dozen
 * times per frame. Works for heap and direct buffers alike (byte array plus address offset).
 */
final class RawAccess
{
    private static final boolean SWAP = ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN;
    /**
     * Tests set {@code -Dtroupe.serialization.checkRawAccess=true}, so that a read or write outside the buffer
     * still fails loudly there (the fuzz test wraps each frame in a buffer of exactly its size). Off, the JIT
     * removes the check.
     */
    private static final boolean CHECK = Boolean.getBoolean("troupe.serialization.checkRawAccess");

    private RawAccess()
    {
    }

    static long getLong(final DirectBuffer buffer, final int index)
    {
        if (CHECK)
        {
            buffer.boundsCheck(index, 8);
        }
        final long value = UnsafeApi.getLong(buffer.byteArray(), buffer.addressOffset() + index);
        return SWAP ? Long.reverseBytes(value) : value;
    }

    static int getInt(final DirectBuffer buffer, final int index)
    {
        if (CHECK)
        {
            buffer.boundsCheck(index, 4);
        }
        final int value = UnsafeApi.getInt(buffer.byteArray(), buffer.addressOffset() + index);
        return SWAP ? Integer.reverseBytes(value) : value;
    }

    static int getUnsignedShort(final DirectBuffer buffer, final int index)
    {
        if (CHECK)
        {
            buffer.boundsCheck(index, 2);
        }
        final short value = UnsafeApi.getShort(buffer.byteArray(), buffer.addressOffset() + index);
        return (SWAP ? Short.reverseBytes(value) : value) & 0xFFFF;
    }

    static void putLong(final DirectBuffer buffer, final int index, final long value)
    {
        if (CHECK)
        {
            buffer.boundsCheck(index, 8);
        }
        UnsafeApi.putLong(buffer.byteArray(), buffer.addressOffset() + index, SWAP ? Long.reverseBytes(value) : value);
    }

    static void putInt(final DirectBuffer buffer, final int index, final int value)
    {
        if (CHECK)
        {
            buffer.boundsCheck(index, 4);
        }
        UnsafeApi.putInt(buffer.byteArray(), buffer.addressOffset() + index,
            SWAP ? Integer.reverseBytes(value) : value);
    }

    static void putShort(final DirectBuffer buffer, final int index, final short value)
    {
        if (CHECK)
        {
            buffer.boundsCheck(index, 2);
        }
        UnsafeApi.putShort(buffer.byteArray(), buffer.addressOffset() + index,
            SWAP ? Short.reverseBytes(value) : value);
    }
}
