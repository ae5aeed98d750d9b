package io.troupe.serialization;

import io.troupe.actor.ActorId;
import io.troupe.actor.MalformedEventException;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Checks and field helpers shared by the codecs. Every payload is little-endian.
 */
final class CodecChecks
{
    static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    /** Bytes of an {@link ActorId}: raw1 then raw2. */
    static final int ACTOR_ID_LENGTH = 16;

    private CodecChecks()
    {
    }

    /**
     * Rejects a payload range that is not inside the buffer, so that no decoder can be led outside it.
     */
    static void checkRange(final int typeId, final DirectBuffer buffer, final int offset, final int length)
    {
        if (offset < 0 || length < 0 || (long)offset + length > buffer.capacity())
        {
            throw new MalformedEventException(typeId, "payload range offset=" + offset + " length=" + length +
                " is outside the buffer of capacity " + buffer.capacity());
        }
    }

    /**
     * Checks the range and that a fixed-length payload has at least {@code required} bytes; later versions may
     * append fields, which this version ignores.
     */
    static void checkFixed(
        final int typeId, final String name, final DirectBuffer buffer, final int offset, final int length,
        final int required)
    {
        checkRange(typeId, buffer, offset, length);
        if (length < required)
        {
            throw new MalformedEventException(typeId, "truncated: " + name + " needs " + required +
                " bytes, the payload has " + length);
        }
    }

    static void putActorId(final MutableDirectBuffer buffer, final int offset, final ActorId id)
    {
        buffer.putLong(offset, id.raw1(), ORDER);
        buffer.putLong(offset + 8, id.raw2(), ORDER);
    }

    static ActorId getActorId(final DirectBuffer buffer, final int offset)
    {
        return ActorId.fromRaw(buffer.getLong(offset, ORDER), buffer.getLong(offset + 8, ORDER));
    }
}
