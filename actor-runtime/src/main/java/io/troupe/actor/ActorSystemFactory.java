package io.troupe.actor;

/**
 * Starts the runtime behind {@link ActorSystem#start}: the runtime provides one, registered as a
 * {@link java.util.ServiceLoader} service in its jar. Users call {@link ActorSystem#start}, never this.
 */
public interface ActorSystemFactory
{
    /**
     * Starts an actor system.
     *
     * @param config its configuration.
     * @return the running system.
     */
    ActorSystem start(ActorSystemConfig config);
}
