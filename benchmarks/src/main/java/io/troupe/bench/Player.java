package io.troupe.bench;

import io.troupe.actor.ActorContext;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;

/**
 * One side of a ping-pong pair: sends the shared ball straight back to whoever sent it.
 */
final class Player implements Behavior
{
    /** The one event every pair bounces: shared and immutable, so a send allocates only its envelope. */
    static final String BALL = "ball";

    @Override
    public void receive(final ActorContext ctx, final Envelope envelope)
    {
        ctx.send(envelope.sender(), BALL);
    }
}
