package io.troupe.bench;

import io.troupe.actor.ActorContext;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;

/**
 * A trivial actor with a little state of its own, as a real actor has: one instance per actor.
 */
final class IdleActor implements Behavior
{
    private int received;

    @Override
    public void receive(final ActorContext ctx, final Envelope envelope)
    {
        received++;
    }
}
