package io.troupe.serialization;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Base of the codecs whose payload always has the same length: fields at fixed offsets, nothing allocated to
 * encode. A longer payload is accepted and its tail ignored, so a later version may append fields.
 *
 * @param <T> the event type.
 */
abstract class FixedLengthCodec<T> implements EventCodec<T>
{
    private final int typeId;
    private final String name;
    private final Class<T> eventClass;
    private final int length;

    FixedLengthCodec(final int typeId, final String name, final Class<T> eventClass, final int length)
    {
        this.typeId = typeId;
        this.name = name;
        this.eventClass = eventClass;
        this.length = length;
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
        return length;
    }

    @Override
    public final int encode(final T event, final MutableDirectBuffer buffer, final int offset)
    {
        write(event, buffer, offset);
        return length;
    }

    @Override
    public final T decode(final DirectBuffer buffer, final int offset, final int length)
    {
        CodecChecks.checkFixed(typeId, name, buffer, offset, length, this.length);
        return read(buffer, offset);
    }

    /**
     * Writes the fields; the buffer has room for the fixed length from {@code offset}.
     */
    abstract void write(T event, MutableDirectBuffer buffer, int offset);

    /**
     * Reads the fields; the range has been checked to hold the fixed length from {@code offset}.
     */
    abstract T read(DirectBuffer buffer, int offset);

    @Override
    public String toString()
    {
        return name;
    }
}
