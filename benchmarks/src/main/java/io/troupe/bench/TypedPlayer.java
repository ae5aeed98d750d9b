package io.troupe.bench;

import io.troupe.actor.ActorRef;
import io.troupe.actor.TypedBehavior;
import io.troupe.actor.TypedContext;

/**
 * One side of a ping-pong pair on the typed API ({@code local.pingpong --api typed}): sends the ball back to its
 * partner through a typed ref, so the figure against {@link Player} is the typed layer's cost per event.
 */
final class TypedPlayer implements TypedBehavior<String>
{
    private ActorRef<String> partner;

    void partner(final ActorRef<String> partner)
    {
        this.partner = partner;
    }

    @Override
    public void receive(final TypedContext<String> ctx, final String ball)
    {
        ctx.send(partner, ball);
    }
}
