package io.troupe.serialization;

import io.troupe.actor.EventTypes;
import io.troupe.actor.MalformedEventException;

import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The default codec of an event class, derived from its shape once, when it is created: a record's components in
 * declaration order (primitives, boxed primitives, {@code String}, {@code byte[]}, {@link io.troupe.actor.ActorId},
 * {@link io.troupe.actor.ServiceId}, {@link io.troupe.actor.ActorRef}, enums, nested records and {@code List}s of
 * these, any of them null except primitives), or an enum, a string, a boxed primitive or a byte array. Encoding and
 * decoding run method handles chained at derivation: no reflection and nothing allocated per event beyond the
 * decoded object itself.
 *
 * <pre>{@code
 * record Fill(long orderId, String venue, ActorRef<Trader> trader) {}
 *
 * EventCodecRegistry codecs = EventCodecRegistry.builder().withTroupeCodecs()
 *     .register(DerivedCodec.of(Fill.class))                 // type id from "com.example.Fill"
 *     .register(DerivedCodec.of(Cancel.class, "orders.Cancel"))   // from a name that survives a rename
 *     .build();
 * }</pre>
 *
 * <p><b>Type ids</b> are derived from the name (the class's binary name unless one is given) by a fixed hash into
 * the user spaces, so every node that registers the same name gets the same id without coordination; a registry
 * refuses two codecs with one id (then give one of them an explicit id with {@link #of(Class, int, String)}).
 * <b>The fingerprint</b> hashes the name and the shape (component names and types, nested records, enum
 * constants): two nodes that bind one type id to different names or shapes refuse each other at the handshake.
 *
 * <p>The class must be accessible to Troupe: on the class path always; in a named module, its package must be open
 * to Troupe's module.
 *
 * @param <T> the event type.
 */
public final class DerivedCodec<T> extends StreamCodec<T>
{
    private static final int USER_SPACES = EventTypes.MAX_SPACE - EventTypes.SPACE_USER_FIRST + 1;

    private final long fingerprint;
    private final String shape;
    private final MethodHandle writer;
    private final MethodHandle reader;

    private DerivedCodec(final Class<T> eventClass, final int typeId, final String name)
    {
        super(typeId, name, eventClass);
        final ValueShapes shapes = new ValueShapes();
        final ValueShapes.Shape derived = shapes.topLevel(eventClass);
        this.shape = shapes.descriptor();
        this.fingerprint = fingerprintOf(name, shape);
        this.writer = derived.writer();
        this.reader = derived.reader();
    }

    /**
     * Derives the codec of a class, named by its binary name (e.g. {@code com.example.Orders$Fill}), with the type
     * id derived from that name.
     *
     * @param eventClass a record, an enum, String, byte[] or a boxed primitive.
     * @param <T>        the event type.
     * @return the codec.
     * @throws IllegalArgumentException if the class or a type it holds is not supported, naming which.
     */
    public static <T> DerivedCodec<T> of(final Class<T> eventClass)
    {
        return of(eventClass, Objects.requireNonNull(eventClass, "eventClass").getName());
    }

    /**
     * Derives the codec of a class under a given name, with the type id derived from the name: renaming or moving
     * the class keeps its id and fingerprint as long as the name and the shape stay.
     *
     * @param eventClass the class.
     * @param name       the name, e.g. {@code "orders.Fill"}.
     * @param <T>        the event type.
     * @return the codec.
     * @throws IllegalArgumentException if the name is empty, or the class or a type it holds is not supported.
     */
    public static <T> DerivedCodec<T> of(final Class<T> eventClass, final String name)
    {
        return of(eventClass, typeIdOf(name), name);
    }

    /**
     * Derives the codec of a class under a given name and an explicit type id.
     *
     * @param eventClass the class.
     * @param typeId     the type id, in a user space (see {@link EventTypes#typeId}).
     * @param name       the name.
     * @param <T>        the event type.
     * @return the codec.
     * @throws IllegalArgumentException if the name is empty, or the class or a type it holds is not supported.
     */
    public static <T> DerivedCodec<T> of(final Class<T> eventClass, final int typeId, final String name)
    {
        Objects.requireNonNull(eventClass, "eventClass");
        if (name == null || name.isEmpty())
        {
            throw new IllegalArgumentException("a derived codec of " + eventClass.getName() + " needs a name");
        }
        return new DerivedCodec<>(eventClass, typeId, name);
    }

    /**
     * The type id a name derives: a 64-bit FNV-1a hash of its UTF-8 bytes, folded into the user spaces
     * ({@link EventTypes#SPACE_USER_FIRST}..{@link EventTypes#MAX_SPACE}, index 0..65535). Fixed for good: nodes of
     * different versions must agree on it.
     *
     * @param name the name.
     * @return the type id.
     */
    public static int typeIdOf(final String name)
    {
        final long hash = fnv1a(name);
        final long folded = hash ^ (hash >>> 32);
        final int space = EventTypes.SPACE_USER_FIRST + (int)Long.remainderUnsigned(folded >>> 16, USER_SPACES);
        return EventTypes.typeId(space, (int)(folded & 0xFFFF));
    }

    private static long fingerprintOf(final String name, final String shape)
    {
        return fnv1a(name + '|' + shape);
    }

    private static long fnv1a(final String text)
    {
        long hash = 0xcbf29ce484222325L;
        for (final byte b : text.getBytes(StandardCharsets.UTF_8))
        {
            hash ^= b & 0xFF;
            hash *= 0x100000001b3L;
        }
        return hash;
    }

    @Override
    public long fingerprint()
    {
        return fingerprint;
    }

    /**
     * What the fingerprint hashes besides the name: every component's name and type, depth first, e.g.
     * {@code com.example.Fill(orderId:Long,venue:String,trader:ActorRef)}.
     *
     * @return the descriptor.
     */
    public String shape()
    {
        return shape;
    }

    @Override
    void writeFields(final EventWriter out, final T event)
    {
        try
        {
            writer.invokeExact(out, (Object)event);
        }
        catch (final RuntimeException | Error ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException("encoding a " + name() + " failed", ex);
        }
    }

    @Override
    T readFields(final EventReader in)
    {
        final T event;
        try
        {
            event = eventClass().cast((Object)reader.invokeExact(in));
        }
        catch (final MalformedEventException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            // a constructor that validates its components refuses what the wire says: the payload is bad
            throw new MalformedEventException(typeId(), "decoding a " + name() + " failed: " + ex, ex);
        }
        if (in.hasRemaining())
        {
            throw new MalformedEventException(typeId(), in.remaining() + " bytes left after a " + name());
        }
        return event;
    }

    @Override
    public String toString()
    {
        return "DerivedCodec{" + name() + ", type=" + EventTypes.describe(typeId()) + ", fingerprint=" +
            Long.toHexString(fingerprint) + '}';
    }
}
