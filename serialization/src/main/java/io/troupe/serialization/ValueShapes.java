package io.troupe.serialization;

import io.troupe.actor.ActorRef;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Derives how to write and read a value type, once: the method handles of a {@link DerivedCodec} and the
 * descriptor its fingerprint hashes. Reflection happens here only; the handles it returns run without it. Not
 * thread safe: one derivation at a time, by the thread that creates the codec.
 */
final class ValueShapes
{
    private static final MethodType BODY_WRITER = MethodType.methodType(void.class, EventWriter.class, Object.class);
    private static final MethodType BODY_READER = MethodType.methodType(Object.class, EventReader.class);

    private final Map<Class<?>, RecordShape> records = new HashMap<>();
    private final StringBuilder descriptor = new StringBuilder();

    /** How one value type is written and read. */
    record Shape(MethodHandle writer, MethodHandle reader)
    {
    }

    /**
     * The shape of a top-level event class: a record's components without a presence byte, or a leaf or enum.
     *
     * @param type the event class.
     * @return handles typed {@code (EventWriter, Object)void} and {@code (EventReader)Object}.
     * @throws IllegalArgumentException if the class, or anything it holds, is not supported.
     */
    Shape topLevel(final Class<?> type)
    {
        if (type.isRecord())
        {
            final RecordShape shape = record(type);
            return new Shape(shape.writeBodyHandle(), shape.readBodyHandle());
        }
        final Shape shape = of(type, type.getName());
        return new Shape(shape.writer.asType(BODY_WRITER), shape.reader.asType(BODY_READER));
    }

    /** The descriptor of everything derived so far: names and types of every component, depth first. */
    String descriptor()
    {
        return descriptor.toString();
    }

    private Shape of(final Type type, final String where)
    {
        if (type instanceof Class)
        {
            return ofClass((Class<?>)type, where);
        }
        if (type instanceof ParameterizedType && ((ParameterizedType)type).getRawType() == List.class)
        {
            final Type element = bound(((ParameterizedType)type).getActualTypeArguments()[0], where);
            descriptor.append("List<");
            final Shape elementShape = of(element, where + "'s element");
            descriptor.append('>');
            final MethodHandle elementWriter = elementShape.writer.asType(BODY_WRITER);
            final MethodHandle elementReader = elementShape.reader.asType(BODY_READER);
            return new Shape(
                MethodHandles.insertArguments(FieldHandles.find("writeList",
                    MethodType.methodType(void.class, MethodHandle.class, EventWriter.class, List.class)),
                    0, elementWriter),
                MethodHandles.insertArguments(FieldHandles.find("readList",
                    MethodType.methodType(List.class, MethodHandle.class, EventReader.class)), 0, elementReader));
        }
        if (type instanceof ParameterizedType && raw(type) == ActorRef.class)
        {
            return ofClass(ActorRef.class, where);
        }
        throw unsupported(where, type);
    }

    private Shape ofClass(final Class<?> type, final String where)
    {
        final MethodHandle leafWriter = FieldHandles.writer(type);
        if (leafWriter != null)
        {
            descriptor.append(FieldHandles.leafName(type));
            return new Shape(leafWriter, FieldHandles.reader(type));
        }
        if (type.isEnum())
        {
            descriptor.append(type.getName()).append('{');
            final Object[] constants = type.getEnumConstants();
            for (int i = 0; i < constants.length; i++)
            {
                descriptor.append(i == 0 ? "" : ",").append(((Enum<?>)constants[i]).name());
            }
            descriptor.append('}');
            return new Shape(
                FieldHandles.find("writeEnum", MethodType.methodType(void.class, EventWriter.class, Enum.class))
                    .asType(MethodType.methodType(void.class, EventWriter.class, type)),
                MethodHandles.insertArguments(FieldHandles.find("readEnum",
                    MethodType.methodType(Object.class, Object[].class, EventReader.class)), 0, (Object)constants)
                    .asType(MethodType.methodType(type, EventReader.class)));
        }
        if (type.isRecord())
        {
            final RecordShape shape = record(type);
            return new Shape(
                MethodHandles.insertArguments(FieldHandles.find("writeNested",
                    MethodType.methodType(void.class, MethodHandle.class, EventWriter.class, Object.class)), 0,
                    shape.writeBodyHandle()).asType(MethodType.methodType(void.class, EventWriter.class, type)),
                MethodHandles.insertArguments(FieldHandles.find("readNested",
                    MethodType.methodType(Object.class, MethodHandle.class, EventReader.class)), 0,
                    shape.readBodyHandle()).asType(MethodType.methodType(type, EventReader.class)));
        }
        throw unsupported(where, type);
    }

    private RecordShape record(final Class<?> type)
    {
        final RecordShape known = records.get(type);
        if (known != null)
        {
            descriptor.append('@').append(type.getName()); // seen before (or recursive): named, not repeated
            return known;
        }
        final RecordShape shape = new RecordShape(type);
        records.put(type, shape);
        descriptor.append(type.getName()).append('(');
        final RecordComponent[] components = type.getRecordComponents();
        final MethodHandles.Lookup lookup = lookupIn(type);
        final List<MethodHandle> writers = new ArrayList<>(components.length);
        final List<MethodHandle> readers = new ArrayList<>(components.length);
        final Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++)
        {
            final RecordComponent component = components[i];
            final String where = type.getName() + '.' + component.getName();
            descriptor.append(i == 0 ? "" : ",").append(component.getName()).append(':');
            final Shape field = of(component.getGenericType(), where);
            types[i] = component.getType();
            final MethodHandle accessor = accessor(lookup, component.getAccessor(), where);
            writers.add(MethodHandles.filterArguments(field.writer, 1, accessor)); // (EventWriter, R)void
            readers.add(field.reader);                                             // (EventReader)X
        }
        descriptor.append(')');
        shape.complete(chainWriters(type, writers), chainReaders(constructor(lookup, type, types), readers));
        return shape;
    }

    /** One handle that runs every component writer in order: {@code (EventWriter, R)void}. */
    private static MethodHandle chainWriters(final Class<?> type, final List<MethodHandle> writers)
    {
        if (writers.isEmpty())
        {
            return MethodHandles.empty(MethodType.methodType(void.class, EventWriter.class, type));
        }
        MethodHandle chain = writers.get(writers.size() - 1);
        for (int i = writers.size() - 2; i >= 0; i--)
        {
            chain = MethodHandles.foldArguments(chain, writers.get(i)); // writer i runs first, adds no argument
        }
        return chain;
    }

    /**
     * One handle that reads every component in order and calls the canonical constructor: {@code (EventReader)R}.
     * Built from the last component back: each fold reads one component first and passes it on, so the reads run
     * in component order whatever order the JVM evaluates arguments in.
     */
    private static MethodHandle chainReaders(final MethodHandle constructor, final List<MethodHandle> readers)
    {
        final int n = readers.size();
        MethodHandle chain = MethodHandles.dropArguments(constructor, n, EventReader.class); // (A1..An, in)R
        for (int k = n - 1; k >= 0; k--)
        {
            chain = MethodHandles.foldArguments(chain, k, readers.get(k)); // (A1..Ak, in)R, reads A(k+1) first
        }
        return chain;
    }

    private static MethodHandles.Lookup lookupIn(final Class<?> type)
    {
        try
        {
            return MethodHandles.privateLookupIn(type, FieldHandles.LOOKUP);
        }
        catch (final IllegalAccessException ex)
        {
            throw new IllegalArgumentException("cannot derive a codec for " + type.getName() + ": its module does " +
                "not open its package to Troupe (" + ex.getMessage() + ")", ex);
        }
    }

    private static MethodHandle accessor(final MethodHandles.Lookup lookup, final Method method, final String where)
    {
        try
        {
            return lookup.unreflect(method);
        }
        catch (final IllegalAccessException ex)
        {
            throw new IllegalArgumentException("cannot read " + where + ": " + ex.getMessage(), ex);
        }
    }

    private static MethodHandle constructor(final MethodHandles.Lookup lookup, final Class<?> type,
        final Class<?>[] types)
    {
        try
        {
            final Constructor<?> canonical = type.getDeclaredConstructor(types);
            return lookup.unreflectConstructor(canonical);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new IllegalArgumentException("cannot call the canonical constructor of " + type.getName() + ": " +
                ex.getMessage(), ex);
        }
    }

    private static Type bound(final Type type, final String where)
    {
        if (type instanceof WildcardType)
        {
            final Type[] upper = ((WildcardType)type).getUpperBounds();
            if (upper.length == 1 && ((WildcardType)type).getLowerBounds().length == 0)
            {
                return upper[0];
            }
        }
        return type;
    }

    private static Class<?> raw(final Type type)
    {
        if (type instanceof Class)
        {
            return (Class<?>)type;
        }
        if (type instanceof ParameterizedType)
        {
            return (Class<?>)((ParameterizedType)type).getRawType();
        }
        return Object.class;
    }

    private static IllegalArgumentException unsupported(final String where, final Type type)
    {
        final String name = type instanceof Class ? ((Class<?>)type).getName() :
            type instanceof GenericArrayType ? type.getTypeName() + " (an array)" : type.getTypeName();
        return new IllegalArgumentException("cannot derive a codec: " + where + " is a " + name + "; supported are " +
            "records, enums, primitives and their boxes, String, byte[], ActorId, ServiceId, ActorRef and Lists of " +
            "these (write a RecordCodec or an SbeFlyweightCodec for anything else)");
    }

    /**
     * A record's body (its components, no presence byte). Nested and recursive uses call it through
     * {@link #writeBody}/{@link #readBody}, which read the handles once they are complete, so a record may hold
     * itself (through a list or a nullable component).
     */
    static final class RecordShape
    {
        private final Class<?> type;
        private MethodHandle writer;
        private MethodHandle reader;

        RecordShape(final Class<?> type)
        {
            this.type = type;
        }

        void complete(final MethodHandle writer, final MethodHandle reader)
        {
            this.writer = writer.asType(BODY_WRITER);
            this.reader = reader.asType(BODY_READER);
        }

        void writeBody(final EventWriter out, final Object value) throws Throwable
        {
            writer.invokeExact(out, value);
        }

        Object readBody(final EventReader in) throws Throwable
        {
            return (Object)reader.invokeExact(in);
        }

        MethodHandle writeBodyHandle()
        {
            if (writer != null)
            {
                return writer; // complete: no indirection
            }
            return bind("writeBody", BODY_WRITER);
        }

        MethodHandle readBodyHandle()
        {
            if (reader != null)
            {
                return reader;
            }
            return bind("readBody", BODY_READER);
        }

        private MethodHandle bind(final String name, final MethodType type)
        {
            try
            {
                return FieldHandles.LOOKUP.findVirtual(RecordShape.class, name, type).bindTo(this);
            }
            catch (final ReflectiveOperationException ex)
            {
                throw new IllegalStateException(name + " of " + this.type.getName(), ex);
            }
        }
    }
}
