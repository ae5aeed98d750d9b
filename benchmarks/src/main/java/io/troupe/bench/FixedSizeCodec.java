package io.troupe.bench;

import io.troupe.actor.MalformedEventException;
import io.troupe.serialization.EventCodec;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Base of the remote workloads' hand-written codecs: a payload of fixed length, fields at fixed little-endian
 * offsets, nothing allocated to encode and only the event (and its own arrays) to decode. No reflection. A
 * longer payload is accepted and its tail ignored; a shorter one, or a range outside the buffer, is refused
 * with a {@link MalformedEventException} before any field is read.
 *
 * <p>Thread safe: subclasses keep no state.
 *
 * @param <T> the event type.
 */
abstract class FixedSizeCodec<T> implements EventCodec<T>
{
    /** Byte order of every field. */
    static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private final int typeId;
    private final String name;
    private final Class<T> eventClass;
    private final int lengthBytes;

    /**
     * Creates the codec.
     *
     * @param typeId      the type id it is registered under.
     * @param name        a readable name for error messages.
     * @param eventClass  the class of the events.
     * @param lengthBytes the payload's fixed length.
     */
    FixedSizeCodec(final int typeId, final String name, final Class<T> eventClass, final int lengthBytes)
    {
        this.typeId = typeId;
        this.name = name;
        this.eventClass = eventClass;
        this.lengthBytes = lengthBytes;
    }

    @Override
    public final int typeId()
    {
        return typeId;
    }

    @Override
    public final String name()
    {
        return name;
    }

    @Override
    public final Class<T> eventClass()
    {
        return eventClass;
    }

    @Override
    public final int encodedLength(final T event)
    {
        return lengthBytes;
    }

    @Override
    public final int encode(final T event, final MutableDirectBuffer buffer, final int offset)
    {
        write(event, buffer, offset);
        return lengthBytes;
    }

    @Override
    public final T decode(final DirectBuffer buffer, final int offset, final int length)
    {
        if (offset < 0 || length < 0 || (long)offset + length > buffer.capacity())
        {
            throw new MalformedEventException(typeId, "payload range offset=" + offset + " length=" + length +
                " is outside the buffer of capacity " + buffer.capacity());
        }
        if (length < lengthBytes)
        {
            throw new MalformedEventException(typeId, "truncated: " + name + " needs " + lengthBytes +
                " bytes, the payload has " + length);
        }
        return read(buffer, offset);
    }

    /**
     * Writes the fields; the buffer has room for the fixed length from {@code offset}.
     *
     * @param event  the event.
     * @param buffer where to write.
     * @param offset where the payload starts.
     */
    abstract void write(T event, MutableDirectBuffer buffer, int offset);

    /**
     * Reads the fields; the range is known to hold the fixed length from {@code offset}.
     *
     * @param buffer the payload's buffer.
     * @param offset where the payload starts.
     * @return the event.
     */
    abstract T read(DirectBuffer buffer, int offset);

    @Override
    public String toString()
    {
        return name;
    }
}
