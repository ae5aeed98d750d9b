package io.troupe.actor.internal;

import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.ActorSystemFactory;

/** The runtime's {@link ActorSystemFactory}, registered in {@code META-INF/services}. */
public final class LocalActorSystemFactory implements ActorSystemFactory
{
    /**
     * For {@link java.util.ServiceLoader}.
     */
    public LocalActorSystemFactory()
    {
    }

    @Override
    public ActorSystem start(final ActorSystemConfig config)
    {
        return LocalActorSystem.start(config);
    }
}
