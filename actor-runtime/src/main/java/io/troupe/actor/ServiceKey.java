package io.troupe.actor;

import java.util.Objects;

/**
 * The typed name of a service: a {@link ServiceId} on node 0 (meaning "the node where it is used") and the type
 * of events the service accepts. Register an actor under a key with
 * {@link ActorSystem#registerService(ServiceKey, ActorRef)}; address it with {@link #local()} (this node's
 * instance) or {@link #on(int)} (the instance on a given node); look it up with
 * {@link ActorSystem#lookupService(ServiceKey)}.
 *
 * <pre>{@code
 * static final ServiceKey<CounterCommand> COUNTER = ServiceKey.of(CounterCommand.class, "counter");
 * system.registerService(COUNTER, system.spawn(CounterCommand.class, new Counter()));
 * system.send(COUNTER.on(2), new Increment(1));      // node 2's counter
 * }</pre>
 *
 * <p>A key is a value; two keys are equal when their names and types are.
 *
 * @param <T> the type of events the service accepts.
 */
public final class ServiceKey<T>
{
    private final Class<T> eventType;
    private final ServiceId id;

    private ServiceKey(final Class<T> eventType, final ServiceId id)
    {
        this.eventType = eventType;
        this.id = id;
    }

    /**
     * A key.
     *
     * @param eventType the type of events the service accepts.
     * @param name      the service name, 1 to {@link ServiceId#MAX_NAME_LENGTH} ASCII characters.
     * @param <T>       the event type.
     * @return the key.
     * @throws IllegalArgumentException if the name is empty, too long or not ASCII.
     */
    public static <T> ServiceKey<T> of(final Class<T> eventType, final String name)
    {
        return new ServiceKey<>(Objects.requireNonNull(eventType, "eventType"), ServiceId.of(0, name));
    }

    /**
     * The type of events the service accepts.
     *
     * @return the class.
     */
    public Class<T> eventType()
    {
        return eventType;
    }

    /**
     * The service id, on node 0.
     *
     * @return the id.
     */
    public ServiceId id()
    {
        return id;
    }

    /**
     * The service name.
     *
     * @return the name.
     */
    public String name()
    {
        return id.name();
    }

    /**
     * The service on the node that sends to it.
     *
     * @return a ref to the service id on node 0.
     */
    public ActorRef<T> local()
    {
        return ActorRef.of(id);
    }

    /**
     * The service on a given node.
     *
     * @param nodeId the node, 0 for the sending node.
     * @return a ref to the service id on that node.
     * @throws IllegalArgumentException if the node id is out of range.
     */
    public ActorRef<T> on(final int nodeId)
    {
        return ActorRef.of(id.onNode(nodeId));
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof ServiceKey && ((ServiceKey<?>)other).id.equals(id) &&
            ((ServiceKey<?>)other).eventType == eventType;
    }

    @Override
    public int hashCode()
    {
        return id.hashCode() * 31 + eventType.hashCode();
    }

    @Override
    public String toString()
    {
        return "ServiceKey{" + id.name() + ", " + eventType.getName() + '}';
    }
}
