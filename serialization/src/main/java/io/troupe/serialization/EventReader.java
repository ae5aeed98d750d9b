package io.troupe.serialization;

import io.troupe.actor.ActorId;
import io.troupe.actor.MalformedEventException;
import org.agrona.DirectBuffer;

import static io.troupe.serialization.CodecChecks.ORDER;

/**
 * Reads, in order, the fields an {@link EventWriter} wrote. A reusable flyweight over one payload: every read checks
 * the bytes it needs, and every string or array length, against what remains, and throws a
 * {@link MalformedEventException} naming the type id, the field and its offset instead of reading outside
 * {@code [offset, offset + length)}.
 *
 * <p>A later version of an event may append fields: its reader checks {@link #hasRemaining()} before reading them.
 *
 * <p>Not thread safe: one reader per thread.
 */
public final class EventReader
{
    private DirectBuffer buffer;
    private int typeId;
    private int offset;
    private int position;
    private int limit;
    /** How deep in nested values a derived codec is reading: bounded, so a hostile payload cannot exhaust the stack. */
    int depth;

    /**
     * Creates a reader; {@link #wrap} it before reading.
     */
    public EventReader()
    {
    }

    /**
     * Starts reading a payload.
     *
     * @param typeId the payload's type id, for error messages.
     * @param buffer the buffer holding it.
     * @param offset where it starts.
     * @param length how many bytes it has.
     * @return this reader.
     * @throws MalformedEventException if the range is not inside the buffer.
     */
    public EventReader wrap(final int typeId, final DirectBuffer buffer, final int offset, final int length)
    {
        CodecChecks.checkRange(typeId, buffer, offset, length);
        this.buffer = buffer;
        this.typeId = typeId;
        this.offset = offset;
        this.position = offset;
        this.limit = offset + length;
        return this;
    }

    /**
     * Drops the wrapped buffer, so a cached reader does not keep it reachable.
     */
    public void reset()
    {
        buffer = null;
        depth = 0;
        offset = 0;
        position = 0;
        limit = 0;
    }

    /**
     * Bytes not read yet.
     *
     * @return bytes.
     */
    public int remaining()
    {
        return limit - position;
    }

    /**
     * Whether bytes remain, e.g. fields appended by a later version.
     *
     * @return true if {@link #remaining()} is positive.
     */
    public boolean hasRemaining()
    {
        return position < limit;
    }

    /**
     * Bytes read since the start of the payload.
     *
     * @return bytes.
     */
    public int position()
    {
        return position - offset;
    }

    /**
     * Reads a byte.
     *
     * @return the value.
     */
    public byte readByte()
    {
        return buffer.getByte(claim(Byte.BYTES, "byte"));
    }

    /**
     * Reads a boolean: one byte, 0 or 1.
     *
     * @return the value.
     * @throws MalformedEventException if the byte is neither 0 nor 1.
     */
    public boolean readBoolean()
    {
        final int at = claim(Byte.BYTES, "boolean");
        final byte value = buffer.getByte(at);
        if (value != 0 && value != 1)
        {
            throw malformed("boolean at offset " + (at - offset) + " is " + value + ", expected 0 or 1");
        }
        return value == 1;
    }

    /**
     * Reads a short.
     *
     * @return the value.
     */
    public short readShort()
    {
        return buffer.getShort(claim(Short.BYTES, "short"), ORDER);
    }

    /**
     * Reads an int.
     *
     * @return the value.
     */
    public int readInt()
    {
        return buffer.getInt(claim(Integer.BYTES, "int"), ORDER);
    }

    /**
     * Reads a long.
     *
     * @return the value.
     */
    public long readLong()
    {
        return buffer.getLong(claim(Long.BYTES, "long"), ORDER);
    }

    /**
     * Reads a float.
     *
     * @return the value.
     */
    public float readFloat()
    {
        return Float.intBitsToFloat(buffer.getInt(claim(Integer.BYTES, "float"), ORDER));
    }

    /**
     * Reads a double.
     *
     * @return the value.
     */
    public double readDouble()
    {
        return Double.longBitsToDouble(buffer.getLong(claim(Long.BYTES, "double"), ORDER));
    }

    /**
     * Reads a string: its UTF-8 byte length, then the bytes (malformed UTF-8 decodes to replacement characters).
     *
     * @return the string, or null if null was written.
     * @throws MalformedEventException if the length is below {@value EventWriter#NULL_LENGTH} or exceeds what remains.
     */
    public String readString()
    {
        final int length = readLength("string");
        if (length == EventWriter.NULL_LENGTH)
        {
            return null;
        }
        final int at = position;
        position += length;
        return buffer.getStringWithoutLengthUtf8(at, length);
    }

    /**
     * Reads a byte array: its length, then the bytes.
     *
     * @return a new array, or null if null was written.
     * @throws MalformedEventException if the length is below {@value EventWriter#NULL_LENGTH} or exceeds what remains.
     */
    public byte[] readBytes()
    {
        final int length = readLength("byte array");
        if (length == EventWriter.NULL_LENGTH)
        {
            return null;
        }
        final byte[] bytes = new byte[length];
        buffer.getBytes(position, bytes);
        position += length;
        return bytes;
    }

    /**
     * Reads an actor id; a {@link io.troupe.actor.ServiceId} comes back as one.
     *
     * @return the id, or null if null was written.
     * @throws MalformedEventException if the presence byte is neither 0 nor 1, or the id is truncated.
     */
    public ActorId readActorId()
    {
        final int at = claim(Byte.BYTES, "actor id presence byte");
        final byte presence = buffer.getByte(at);
        if (presence == EventWriter.ACTOR_ID_ABSENT)
        {
            return null;
        }
        if (presence != EventWriter.ACTOR_ID_PRESENT)
        {
            throw malformed("actor id presence byte at offset " + (at - offset) + " is " + presence +
                ", expected 0 or 1");
        }
        final int raw = claim(2 * Long.BYTES, "actor id");
        return ActorId.fromRaw(buffer.getLong(raw, ORDER), buffer.getLong(raw + Long.BYTES, ORDER));
    }

    private int readLength(final String what)
    {
        final int at = claim(Integer.BYTES, what + " length");
        final int length = buffer.getInt(at, ORDER);
        if (length < EventWriter.NULL_LENGTH)
        {
            throw malformed(what + " length " + length + " at offset " + (at - offset) + " is negative");
        }
        if (length > limit - position)
        {
            throw malformed(what + " length " + length + " at offset " + (at - offset) + " exceeds the " +
                (limit - position) + " bytes remaining");
        }
        return length;
    }

    private int claim(final int bytes, final String what)
    {
        if (limit - position < bytes)
        {
            throw malformed("truncated: a " + what + " at offset " + (position - offset) + " needs " + bytes +
                " bytes, " + (limit - position) + " remain of " + (limit - offset));
        }
        final int at = position;
        position += bytes;
        return at;
    }

    /**
     * An exception that rejects the payload being read, for a reader's own checks (a value out of range).
     *
     * @param problem what is wrong, with where it is.
     * @return the exception, to throw.
     */
    public MalformedEventException malformed(final String problem)
    {
        return new MalformedEventException(typeId, problem);
    }
}
