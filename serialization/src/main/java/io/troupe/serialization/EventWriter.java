package io.troupe.serialization;

import io.troupe.actor.ActorId;
import org.agrona.MutableDirectBuffer;

import static io.troupe.serialization.CodecChecks.ORDER;

/**
 * Writes the fields of an event one after the other, little-endian, into a buffer, or, in measuring mode, only
 * counts the bytes they would take. A reusable flyweight: {@link #wrap} or {@link #measure()} starts again; nothing
 * is allocated either way. Read the fields back in the same order with an {@link EventReader}.
 *
 * <p>Layouts: primitives take their Java size ({@code boolean} one byte, 0 or 1); a {@code String} is an
 * {@code int32} byte length then its UTF-8 bytes, and a {@code byte[]} an {@code int32} length then the bytes,
 * both with length {@value #NULL_LENGTH} for null; an {@link ActorId} is a presence byte (0 null, 1 present)
 * then, if present, its raw1 and raw2 longs.
 *
 * <p>Not thread safe: one writer per thread. The caller of {@link #wrap} provides the room the fields need.
 */
public final class EventWriter
{
    /** Length prefix written for a null string or byte array. */
    public static final int NULL_LENGTH = -1;
    /** Presence byte of a null actor id. */
    static final byte ACTOR_ID_ABSENT = 0;
    /** Presence byte of a present actor id. */
    static final byte ACTOR_ID_PRESENT = 1;

    private MutableDirectBuffer buffer;
    private int offset;
    private int position;

    /**
     * Creates a writer in measuring mode.
     */
    public EventWriter()
    {
    }

    /**
     * Starts writing at {@code offset} of a buffer.
     *
     * @param buffer where to write.
     * @param offset where the first field goes.
     * @return this writer.
     */
    public EventWriter wrap(final MutableDirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        this.position = offset;
        return this;
    }

    /**
     * Starts measuring: writes only count bytes, and drops any buffer wrapped before.
     *
     * @return this writer.
     */
    public EventWriter measure()
    {
        this.buffer = null;
        this.offset = 0;
        this.position = 0;
        return this;
    }

    /**
     * Whether writes only count bytes.
     *
     * @return true in measuring mode.
     */
    public boolean isMeasuring()
    {
        return buffer == null;
    }

    /**
     * Bytes written, or measured, since the last {@link #wrap} or {@link #measure()}.
     *
     * @return bytes.
     */
    public int length()
    {
        return position - offset;
    }

    /**
     * Bytes a string takes as a field: the length prefix plus its UTF-8 bytes. Allocates nothing.
     *
     * @param value the string, or null.
     * @return bytes.
     */
    public static int stringFieldLength(final String value)
    {
        return Integer.BYTES + (value == null ? 0 : Utf8.encodedLength(value));
    }

    /**
     * Bytes of the UTF-8 encoding of a string, without a length prefix; e.g. for the length of an SBE var string.
     * Allocates nothing.
     *
     * @param value the string.
     * @return bytes.
     */
    public static int utf8Length(final String value)
    {
        return Utf8.encodedLength(value);
    }

    /**
     * Writes a byte.
     *
     * @param value the value.
     * @return this writer.
     */
    public EventWriter writeByte(final byte value)
    {
        if (buffer != null)
        {
            buffer.putByte(position, value);
        }
        position += Byte.BYTES;
        return this;
    }

    /**
     * Writes a boolean as one byte, 1 for true.
     *
     * @param value the value.
     * @return this writer.
     */
    public EventWriter writeBoolean(final boolean value)
    {
        return writeByte((byte)(value ? 1 : 0));
    }

    /**
     * Writes a short.
     *
     * @param value the value.
     * @return this writer.
     */
    public EventWriter writeShort(final short value)
    {
        if (buffer != null)
        {
            buffer.putShort(position, value, ORDER);
        }
        position += Short.BYTES;
        return this;
    }

    /**
     * Writes an int.
     *
     * @param value the value.
     * @return this writer.
     */
    public EventWriter writeInt(final int value)
    {
        if (buffer != null)
        {
            buffer.putInt(position, value, ORDER);
        }
        position += Integer.BYTES;
        return this;
    }

    /**
     * Writes a long.
     *
     * @param value the value.
     * @return this writer.
     */
    public EventWriter writeLong(final long value)
    {
        if (buffer != null)
        {
            buffer.putLong(position, value, ORDER);
        }
        position += Long.BYTES;
        return this;
    }

    /**
     * Writes a float, bit for bit (NaN payloads included).
     *
     * @param value the value.
     * @return this writer.
     */
    public EventWriter writeFloat(final float value)
    {
        return writeInt(Float.floatToRawIntBits(value));
    }

    /**
     * Writes a double, bit for bit (NaN payloads included).
     *
     * @param value the value.
     * @return this writer.
     */
    public EventWriter writeDouble(final double value)
    {
        return writeLong(Double.doubleToRawLongBits(value));
    }

    /**
     * Writes a string as its UTF-8 byte length then the bytes; a lone surrogate becomes {@code '?'}.
     *
     * @param value the string, or null.
     * @return this writer.
     */
    public EventWriter writeString(final String value)
    {
        if (value == null)
        {
            return writeInt(NULL_LENGTH);
        }
        if (buffer == null)
        {
            position += Integer.BYTES + Utf8.encodedLength(value);
            return this;
        }
        // one pass: the bytes first, then the length in front of them
        final int length = Utf8.encode(value, buffer, position + Integer.BYTES);
        buffer.putInt(position, length, ORDER);
        position += Integer.BYTES + length;
        return this;
    }

    /**
     * Writes a byte array as its length then the bytes.
     *
     * @param value the bytes, or null.
     * @return this writer.
     */
    public EventWriter writeBytes(final byte[] value)
    {
        if (value == null)
        {
            return writeInt(NULL_LENGTH);
        }
        writeInt(value.length);
        if (buffer != null)
        {
            buffer.putBytes(position, value);
        }
        position += value.length;
        return this;
    }

    /**
     * Writes an actor id (a {@link io.troupe.actor.ServiceId} too) as a presence byte and, if present, its two raw
     * longs.
     *
     * @param value the id, or null.
     * @return this writer.
     */
    public EventWriter writeActorId(final ActorId value)
    {
        if (value == null)
        {
            return writeByte(ACTOR_ID_ABSENT);
        }
        return writeByte(ACTOR_ID_PRESENT).writeLong(value.raw1()).writeLong(value.raw2());
    }
}
