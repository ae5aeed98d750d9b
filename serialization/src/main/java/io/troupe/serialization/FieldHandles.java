package io.troupe.serialization;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorRef;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The leaves of a derived codec: one static writer {@code (EventWriter, X)void} and one static reader
 * {@code (EventReader)X} per supported value type, found by name, and the combinators for nullable nested values
 * and lists. A {@link DerivedCodec} chains them with method handles once, when it is derived.
 *
 * <p>Wire forms (all big-endian, as {@link EventWriter} writes them): primitives as themselves ({@code char} as a
 * short); boxed primitives as a presence byte (0 absent, 1 present) and the value; strings and byte arrays as
 * {@link EventWriter#writeString}/{@link EventWriter#writeBytes}; actor ids and refs as
 * {@link EventWriter#writeActorId}; enums as the constant's ordinal (an int, -1 for null); nested records as a
 * presence byte and their components; lists as an element count (an int, -1 for null) and the elements.
 */
final class FieldHandles
{
    static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
    private static final byte ABSENT = 0;
    private static final byte PRESENT = 1;
    /** Nested records and lists deeper than this are refused as malformed (a hostile payload, or a bug). */
    static final int MAX_DEPTH = 64;

    private FieldHandles()
    {
    }

    /**
     * The writer of a leaf type.
     *
     * @param type a primitive, boxed primitive, String, byte[], ActorId (or ServiceId) or ActorRef.
     * @return {@code (EventWriter, type)void}, or null if the type is not a leaf.
     */
    static MethodHandle writer(final Class<?> type)
    {
        final Class<?> declared = ActorId.class.isAssignableFrom(type) ? ActorId.class : type;
        final String name = leafName(declared);
        if (name == null)
        {
            return null;
        }
        final MethodHandle handle = find("write" + name,
            MethodType.methodType(void.class, EventWriter.class, declared));
        return handle.asType(MethodType.methodType(void.class, EventWriter.class, type));
    }

    /**
     * The reader of a leaf type.
     *
     * @param type as for {@link #writer}.
     * @return {@code (EventReader)type}, or null if the type is not a leaf.
     */
    static MethodHandle reader(final Class<?> type)
    {
        if (ActorId.class.isAssignableFrom(type) && type != ActorId.class)
        {
            // a ServiceId component: read an id and check that it is one
            return MethodHandles.insertArguments(find("readIdOf", MethodType.methodType(
                ActorId.class, Class.class, EventReader.class)), 0, type)
                .asType(MethodType.methodType(type, EventReader.class));
        }
        final String name = leafName(type);
        if (name == null)
        {
            return null;
        }
        return find("read" + name, MethodType.methodType(type, EventReader.class));
    }

    /** A readable name of a leaf type for shape descriptors, or null if not a leaf. */
    static String leafName(final Class<?> type)
    {
        if (type.isPrimitive())
        {
            return type == void.class ? null : capitalise(type.getName());
        }
        if (type == Boolean.class || type == Byte.class || type == Short.class || type == Character.class ||
            type == Integer.class || type == Long.class || type == Float.class || type == Double.class)
        {
            return "Boxed" + type.getSimpleName();
        }
        if (type == String.class)
        {
            return "String";
        }
        if (type == byte[].class)
        {
            return "ByteArray";
        }
        if (type == ActorId.class)
        {
            return "ActorId";
        }
        if (type == ActorRef.class)
        {
            return "ActorRef";
        }
        return null;
    }

    private static String capitalise(final String name)
    {
        return Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    static MethodHandle find(final String name, final MethodType type)
    {
        try
        {
            return LOOKUP.findStatic(FieldHandles.class, name, type);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new IllegalStateException("missing field handle " + name + type, ex);
        }
    }

    // ------------------------------------------------------------------ combinators

    /** {@code (EventWriter, Object)void} for a nullable nested value written by {@code body}. */
    static void writeNested(final MethodHandle body, final EventWriter out, final Object value) throws Throwable
    {
        if (value == null)
        {
            out.writeByte(ABSENT);
            return;
        }
        out.writeByte(PRESENT);
        body.invokeExact(out, value);
    }

    static Object readNested(final MethodHandle body, final EventReader in) throws Throwable
    {
        if (!presence(in, "nested value"))
        {
            return null;
        }
        enter(in);
        try
        {
            return (Object)body.invokeExact(in);
        }
        finally
        {
            in.depth--;
        }
    }

    private static void enter(final EventReader in)
    {
        if (++in.depth > MAX_DEPTH)
        {
            in.depth--;
            throw in.malformed("values nested more than " + MAX_DEPTH + " deep");
        }
    }

    static void writeList(final MethodHandle element, final EventWriter out, final List<?> list) throws Throwable
    {
        if (list == null)
        {
            out.writeInt(EventWriter.NULL_LENGTH);
            return;
        }
        final int size = list.size();
        out.writeInt(size);
        for (int i = 0; i < size; i++)
        {
            element.invokeExact(out, (Object)list.get(i));
        }
    }

    static List<?> readList(final MethodHandle element, final EventReader in) throws Throwable
    {
        final int size = in.readInt();
        if (size == EventWriter.NULL_LENGTH)
        {
            return null;
        }
        // every element takes at least one byte: a count larger than what remains is a lie, refused before it
        // sizes anything
        if (size < 0 || size > in.remaining())
        {
            throw in.malformed("list of " + size + " elements, with " + in.remaining() + " bytes left");
        }
        final Object[] elements = new Object[size];
        enter(in);
        try
        {
            for (int i = 0; i < size; i++)
            {
                elements[i] = (Object)element.invokeExact(in);
            }
        }
        finally
        {
            in.depth--;
        }
        return Collections.unmodifiableList(Arrays.asList(elements));
    }

    static void writeEnum(final EventWriter out, final Enum<?> value)
    {
        out.writeInt(value == null ? -1 : value.ordinal());
    }

    static Object readEnum(final Object[] constants, final EventReader in)
    {
        final int ordinal = in.readInt();
        if (ordinal == -1)
        {
            return null;
        }
        if (ordinal < 0 || ordinal >= constants.length)
        {
            throw in.malformed("enum ordinal " + ordinal + " out of range 0.." + (constants.length - 1) + " of " +
                constants.getClass().getComponentType().getName());
        }
        return constants[ordinal];
    }

    private static boolean presence(final EventReader in, final String what)
    {
        final byte presence = in.readByte();
        if (presence != ABSENT && presence != PRESENT)
        {
            throw in.malformed(what + " presence byte is " + presence + ", expected 0 or 1");
        }
        return presence == PRESENT;
    }

    // ------------------------------------------------------------------ leaves, found by name

    static void writeBoolean(final EventWriter out, final boolean value)
    {
        out.writeBoolean(value);
    }

    static boolean readBoolean(final EventReader in)
    {
        return in.readBoolean();
    }

    static void writeByte(final EventWriter out, final byte value)
    {
        out.writeByte(value);
    }

    static byte readByte(final EventReader in)
    {
        return in.readByte();
    }

    static void writeShort(final EventWriter out, final short value)
    {
        out.writeShort(value);
    }

    static short readShort(final EventReader in)
    {
        return in.readShort();
    }

    static void writeChar(final EventWriter out, final char value)
    {
        out.writeShort((short)value);
    }

    static char readChar(final EventReader in)
    {
        return (char)in.readShort();
    }

    static void writeInt(final EventWriter out, final int value)
    {
        out.writeInt(value);
    }

    static int readInt(final EventReader in)
    {
        return in.readInt();
    }

    static void writeLong(final EventWriter out, final long value)
    {
        out.writeLong(value);
    }

    static long readLong(final EventReader in)
    {
        return in.readLong();
    }

    static void writeFloat(final EventWriter out, final float value)
    {
        out.writeFloat(value);
    }

    static float readFloat(final EventReader in)
    {
        return in.readFloat();
    }

    static void writeDouble(final EventWriter out, final double value)
    {
        out.writeDouble(value);
    }

    static double readDouble(final EventReader in)
    {
        return in.readDouble();
    }

    static void writeBoxedBoolean(final EventWriter out, final Boolean value)
    {
        if (present(out, value))
        {
            out.writeBoolean(value);
        }
    }

    static Boolean readBoxedBoolean(final EventReader in)
    {
        return presence(in, "Boolean") ? in.readBoolean() : null;
    }

    static void writeBoxedByte(final EventWriter out, final Byte value)
    {
        if (present(out, value))
        {
            out.writeByte(value);
        }
    }

    static Byte readBoxedByte(final EventReader in)
    {
        return presence(in, "Byte") ? in.readByte() : null;
    }

    static void writeBoxedShort(final EventWriter out, final Short value)
    {
        if (present(out, value))
        {
            out.writeShort(value);
        }
    }

    static Short readBoxedShort(final EventReader in)
    {
        return presence(in, "Short") ? in.readShort() : null;
    }

    static void writeBoxedCharacter(final EventWriter out, final Character value)
    {
        if (present(out, value))
        {
            out.writeShort((short)value.charValue());
        }
    }

    static Character readBoxedCharacter(final EventReader in)
    {
        return presence(in, "Character") ? (char)in.readShort() : null;
    }

    static void writeBoxedInteger(final EventWriter out, final Integer value)
    {
        if (present(out, value))
        {
            out.writeInt(value);
        }
    }

    static Integer readBoxedInteger(final EventReader in)
    {
        return presence(in, "Integer") ? in.readInt() : null;
    }

    static void writeBoxedLong(final EventWriter out, final Long value)
    {
        if (present(out, value))
        {
            out.writeLong(value);
        }
    }

    static Long readBoxedLong(final EventReader in)
    {
        return presence(in, "Long") ? in.readLong() : null;
    }

    static void writeBoxedFloat(final EventWriter out, final Float value)
    {
        if (present(out, value))
        {
            out.writeFloat(value);
        }
    }

    static Float readBoxedFloat(final EventReader in)
    {
        return presence(in, "Float") ? in.readFloat() : null;
    }

    static void writeBoxedDouble(final EventWriter out, final Double value)
    {
        if (present(out, value))
        {
            out.writeDouble(value);
        }
    }

    static Double readBoxedDouble(final EventReader in)
    {
        return presence(in, "Double") ? in.readDouble() : null;
    }

    private static boolean present(final EventWriter out, final Object value)
    {
        out.writeByte(value == null ? ABSENT : PRESENT);
        return value != null;
    }

    static void writeString(final EventWriter out, final String value)
    {
        out.writeString(value);
    }

    static String readString(final EventReader in)
    {
        return in.readString();
    }

    static void writeByteArray(final EventWriter out, final byte[] value)
    {
        out.writeBytes(value);
    }

    static byte[] readByteArray(final EventReader in)
    {
        return in.readBytes();
    }

    static void writeActorId(final EventWriter out, final ActorId value)
    {
        out.writeActorId(value);
    }

    static ActorId readActorId(final EventReader in)
    {
        return in.readActorId();
    }

    static ActorId readIdOf(final Class<?> type, final EventReader in)
    {
        final ActorId id = in.readActorId();
        if (id != null && !type.isInstance(id))
        {
            throw in.malformed("expected a " + type.getSimpleName() + ", read " + id);
        }
        return id;
    }

    static void writeActorRef(final EventWriter out, final ActorRef<?> value)
    {
        out.writeActorId(value == null ? null : value.id());
    }

    static ActorRef<?> readActorRef(final EventReader in)
    {
        final ActorId id = in.readActorId();
        return id == null ? null : ActorRef.of(id);
    }
}
