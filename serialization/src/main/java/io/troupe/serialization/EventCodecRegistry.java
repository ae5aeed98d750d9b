package io.troupe.serialization;

import io.troupe.actor.EventTypes;
import org.agrona.collections.Int2ObjectHashMap;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The codecs of a node, by type id and by event class. Built once at start-up; immutable after
 * {@link Builder#build()} and safe to share between threads. Lookups allocate nothing.
 *
 * <p>Type ids live in spaces ({@link EventTypes}): Troupe's own spaces {@link EventTypes#SPACE_SYSTEM}..
 * {@link EventTypes#SPACE_MEMQUOTA} are reserved to Troupe's codecs and registered with
 * {@link Builder#registerSystem}; application codecs use spaces from {@link EventTypes#SPACE_USER_FIRST} to
 * {@link EventTypes#MAX_SPACE} and are registered with {@link Builder#register}. Spaces in between are reserved
 * and rejected by both. A type id or an event class claimed twice fails the registration, naming both codecs.
 *
 * <pre>{@code
 * EventCodecRegistry codecs = EventCodecRegistry.builder()
 *     .withTroupeCodecs()
 *     .register(ORDER_CODEC)
 *     .build();
 * }</pre>
 */
public final class EventCodecRegistry
{
    /** Largest of Troupe's own spaces. */
    static final int LAST_TROUPE_SPACE = EventTypes.SPACE_MEMQUOTA;

    private final Int2ObjectHashMap<EventCodec<?>> byTypeId;
    private final Map<Class<?>, EventCodec<?>> byClass;
    private final List<EventCodec<?>> codecs;

    private EventCodecRegistry(final Builder builder)
    {
        byTypeId = new Int2ObjectHashMap<>(builder.byTypeId);
        byClass = new HashMap<>(builder.byClass);
        codecs = Collections.unmodifiableList(new ArrayList<>(builder.codecs));
    }

    /**
     * Starts an empty registry.
     *
     * @return a builder.
     */
    public static Builder builder()
    {
        return new Builder();
    }

    /**
     * The codec for a type id, e.g. to attach as the decoder of a received payload.
     *
     * @param typeId the type id.
     * @return the codec, or null if none is registered.
     */
    public EventCodec<?> codec(final int typeId)
    {
        return byTypeId.get(typeId);
    }

    /**
     * The codec for an event class: exactly that class, not a superclass or interface of it.
     *
     * @param eventClass the class of the event to send.
     * @param <T>        the event type.
     * @return the codec, or null if none is registered.
     */
    public <T> EventCodec<T> codecFor(final Class<T> eventClass)
    {
        @SuppressWarnings("unchecked") // registered under its own eventClass(), which is this class
        final EventCodec<T> codec = (EventCodec<T>)byClass.get(eventClass);
        return codec;
    }

    /**
     * Every codec, in registration order.
     *
     * @return an unmodifiable list.
     */
    public List<EventCodec<?>> codecs()
    {
        return codecs;
    }

    /**
     * How many codecs are registered.
     *
     * @return the count.
     */
    public int size()
    {
        return codecs.size();
    }

    @Override
    public String toString()
    {
        final StringBuilder sb = new StringBuilder("EventCodecRegistry{");
        for (int i = 0; i < codecs.size(); i++)
        {
            final EventCodec<?> codec = codecs.get(i);
            sb.append(i == 0 ? "" : ", ").append(EventTypes.describe(codec.typeId())).append('=').append(codec.name());
        }
        return sb.append('}').toString();
    }

    /**
     * Collects codecs and checks each one as it is added, so a conflict fails at start-up with both names. Not
     * thread safe; {@link #build()} may be called more than once and copies what was registered so far.
     */
    public static final class Builder
    {
        private final Int2ObjectHashMap<EventCodec<?>> byTypeId = new Int2ObjectHashMap<>();
        private final Map<Class<?>, EventCodec<?>> byClass = new HashMap<>();
        private final List<EventCodec<?>> codecs = new ArrayList<>();

        private Builder()
        {
        }

        /**
         * Registers an application codec, whose type id must be in a user space
         * ({@link EventTypes#SPACE_USER_FIRST}..{@link EventTypes#MAX_SPACE}).
         *
         * @param codec the codec.
         * @return this builder.
         * @throws IllegalArgumentException if the type id is not in a user space, or the codec has no name or class.
         * @throws IllegalStateException    if its type id or event class is already registered.
         */
        public Builder register(final EventCodec<?> codec)
        {
            checkShape(codec);
            final int space = EventTypes.spaceOf(codec.typeId());
            if (space < EventTypes.SPACE_USER_FIRST || space > EventTypes.MAX_SPACE)
            {
                throw new IllegalArgumentException(describe(codec) + " is in space " + space + "; application codecs " +
                    "must use spaces " + EventTypes.SPACE_USER_FIRST + ".." + EventTypes.MAX_SPACE +
                    (space <= LAST_TROUPE_SPACE ?
                    " (spaces 0.." + LAST_TROUPE_SPACE + " are Troupe's own: registerSystem)" :
                    " (spaces " + (LAST_TROUPE_SPACE + 1) + ".." + (EventTypes.SPACE_USER_FIRST - 1) +
                    " are reserved)"));
            }
            return add(codec);
        }

        /**
         * Registers the {@link DerivedCodec} of an event class: its type id derived from the class's binary name.
         *
         * @param eventClass a record, an enum, String, byte[] or a boxed primitive.
         * @return this builder.
         * @throws IllegalArgumentException if the class or a type it holds is not supported.
         * @throws IllegalStateException    if its type id or event class is already registered.
         */
        public Builder register(final Class<?> eventClass)
        {
            return register(DerivedCodec.of(eventClass));
        }

        /**
         * Registers a codec of one of Troupe's own subsystems, whose type id must be in a Troupe space
         * ({@link EventTypes#SPACE_SYSTEM}..{@link EventTypes#SPACE_MEMQUOTA}). Troupe modules use this;
         * applications use {@link #register}.
         *
         * @param codec the codec.
         * @return this builder.
         * @throws IllegalArgumentException if the type id is not in a Troupe space, or the codec has no name or class.
         * @throws IllegalStateException    if its type id or event class is already registered.
         */
        public Builder registerSystem(final EventCodec<?> codec)
        {
            checkShape(codec);
            final int space = EventTypes.spaceOf(codec.typeId());
            if (space > LAST_TROUPE_SPACE)
            {
                throw new IllegalArgumentException(describe(codec) + " is in space " + space +
                    "; registerSystem takes Troupe's spaces 0.." + LAST_TROUPE_SPACE +
                    ", application codecs (spaces " + EventTypes.SPACE_USER_FIRST + ".." + EventTypes.MAX_SPACE +
                    ") use register");
            }
            return add(codec);
        }

        /**
         * Registers the codecs of the runtime's own events ({@link TroupeCodecs#ALL}).
         *
         * @return this builder.
         * @throws IllegalStateException if one of their type ids or classes is already registered.
         */
        public Builder withTroupeCodecs()
        {
            for (final EventCodec<?> codec : TroupeCodecs.ALL)
            {
                registerSystem(codec);
            }
            return this;
        }

        /**
         * Builds the immutable registry.
         *
         * @return the registry.
         */
        public EventCodecRegistry build()
        {
            return new EventCodecRegistry(this);
        }

        private Builder add(final EventCodec<?> codec)
        {
            final EventCodec<?> sameType = byTypeId.get(codec.typeId());
            if (sameType != null)
            {
                throw new IllegalStateException("event type " + EventTypes.describe(codec.typeId()) +
                    " is claimed by two codecs: '" + sameType.name() + "' and '" + codec.name() + "'");
            }
            final EventCodec<?> sameClass = byClass.get(codec.eventClass());
            if (sameClass != null)
            {
                throw new IllegalStateException("event class " + codec.eventClass().getName() +
                    " is claimed by two codecs: '" + sameClass.name() + "' (type " +
                    EventTypes.describe(sameClass.typeId()) + ") and '" + codec.name() + "' (type " +
                    EventTypes.describe(codec.typeId()) + ")");
            }
            byTypeId.put(codec.typeId(), codec);
            byClass.put(codec.eventClass(), codec);
            codecs.add(codec);
            return this;
        }

        private static void checkShape(final EventCodec<?> codec)
        {
            if (codec == null)
            {
                throw new IllegalArgumentException("codec must not be null");
            }
            if (codec.name() == null || codec.name().isEmpty())
            {
                throw new IllegalArgumentException("codec for type " + EventTypes.describe(codec.typeId()) +
                    " has no name");
            }
            if (codec.eventClass() == null)
            {
                throw new IllegalArgumentException(describe(codec) + " has no event class");
            }
            if (codec.typeId() == EventTypes.BY_CLASS)
            {
                throw new IllegalArgumentException(describe(codec) + " uses type id 0, which means \"by class\"");
            }
        }

        private static String describe(final EventCodec<?> codec)
        {
            return "codec '" + codec.name() + "' (type " + EventTypes.describe(codec.typeId()) + ")";
        }
    }
}
