package io.troupe.bench;

import io.troupe.actor.ActorContext;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;

/**
 * {@code remote.rtt}'s responder, on the child's node: decodes each {@link Ping} and replies with it, as a
 * request/response service that reads its request would.
 */
final class Echo implements Behavior
{
    @Override
    public void receive(final ActorContext ctx, final Envelope envelope)
    {
        if (envelope.type() == RemoteCodecs.PING_TYPE)
        {
            ctx.reply(envelope.event());
        }
    }
}
