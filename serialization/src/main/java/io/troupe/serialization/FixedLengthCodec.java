package io.troupe.serialization;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Base of the codecs whose payload always has the same length: fields at fixed offsets, nothing allocated to
 * encode. A longer payload is accepted and its tail ignored, so a later version may append fields; a shorter
 * one, or a range outside the buffer, is refused with a {@code MalformedEventException} before any field is
 * read. Troupe's own codecs extend it, and so may a user's hand-written ones. Thread safe if the subclass
 * keeps no state.
 *
 * @param <T> the event type.
 */
public abstract class FixedLengthCodec<T> extends CodecIdentity<T>
{
    /** Byte order of Troupe's payload fields. */
    protected static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private final int length;

    /**
     * Creates the codec.
     *
     * @param typeId     the type id it is registered under.
     * @param name       a readable name for error messages.
     * @param eventClass the class of the events.
     * @param length     the payload's fixed length.
     */
    protected FixedLengthCodec(final int typeId, final String name, final Class<T> eventClass, final int length)
    {
        super(typeId, name, eventClass);
        this.length = length;
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
        CodecChecks.checkFixed(typeId(), name(), buffer, offset, length, this.length);
        return read(buffer, offset);
    }

    /**
     * Writes the fields; the buffer has room for the fixed length from {@code offset}.
     *
     * @param event  the event.
     * @param buffer where to write.
     * @param offset where the payload starts.
     */
    protected abstract void write(T event, MutableDirectBuffer buffer, int offset);

    /**
     * Reads the fields; the range has been checked to hold the fixed length from {@code offset}.
     *
     * @param buffer the payload's buffer.
     * @param offset where the payload starts.
     * @return the event.
     */
    protected abstract T read(DirectBuffer buffer, int offset);

    @Override
    public String toString()
    {
        return name();
    }
}
