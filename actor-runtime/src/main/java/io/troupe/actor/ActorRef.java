package io.troupe.actor;

import java.util.Objects;

/**
 * A typed address: the {@link ActorId} of an actor (or a {@link ServiceId} of a service) that accepts events of
 * type {@code T}. Sending through a ref checks the event's type at compile time:
 * {@code system.send(counter, new Increment(1))} compiles only if {@code Increment} is a {@code T}.
 *
 * <p>A ref is a value: it holds the id and nothing else, so it costs nothing to keep, compare or send across
 * nodes (a derived record codec writes a ref as its 16-byte id). Two refs are equal when their ids are. Sends
 * go through an {@link ActorSystem}, an {@link ActorContext} or a {@link TypedContext}, never through the ref.
 *
 * @param <T> the type of events the actor accepts.
 */
public final class ActorRef<T>
{
    private final ActorId id;

    private ActorRef(final ActorId id)
    {
        this.id = id;
    }

    /**
     * A ref to an id whose actor the caller knows to accept {@code T} events: the one place where a type is
     * asserted rather than checked. {@link ActorSystem#spawn} and {@link ServiceKey} give checked refs.
     *
     * @param id  an actor or service id.
     * @param <T> the event type the actor accepts.
     * @return the ref.
     * @throws NullPointerException if the id is null.
     */
    public static <T> ActorRef<T> of(final ActorId id)
    {
        return new ActorRef<>(Objects.requireNonNull(id, "id"));
    }

    /**
     * The id the ref wraps.
     *
     * @return the id.
     */
    public ActorId id()
    {
        return id;
    }

    /**
     * This ref, seen as accepting a narrower type: safe, since an actor that accepts {@code T} accepts every
     * {@code U} that is a {@code T}.
     *
     * @param <U> a subtype of {@code T}.
     * @return this ref.
     */
    @SuppressWarnings("unchecked") // a ref holds no T: the cast only narrows what callers may send
    public <U extends T> ActorRef<U> narrow()
    {
        return (ActorRef<U>)this;
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof ActorRef && ((ActorRef<?>)other).id.equals(id);
    }

    @Override
    public int hashCode()
    {
        return id.hashCode();
    }

    /**
     * The id's form, e.g. {@code [3:1729:17]}.
     *
     * @return the text.
     */
    @Override
    public String toString()
    {
        return id.toString();
    }
}
