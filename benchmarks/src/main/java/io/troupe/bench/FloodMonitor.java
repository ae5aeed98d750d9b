package io.troupe.bench;

import io.troupe.actor.ActorContext;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;

/**
 * {@code flow.flood}'s contact on the child's node, on a mailbox of its own: a {@link FloodPace} sets the
 * consumer's service time and starts the heap peak again; a {@link FloodTally} request is answered with the
 * consumer's counts and the heap peak. Both are answered with a tally.
 */
final class FloodMonitor implements Behavior
{
    private final FloodConsumer consumer;

    /**
     * Creates the monitor.
     *
     * @param consumer the consumer it reports on.
     */
    FloodMonitor(final FloodConsumer consumer)
    {
        this.consumer = consumer;
    }

    @Override
    public void receive(final ActorContext ctx, final Envelope envelope)
    {
        final int type = envelope.type();
        if (type == RemoteCodecs.FLOOD_PACE_TYPE)
        {
            consumer.serviceNs(((FloodPace)envelope.event()).serviceNs());
            HeapPeak.reset();
            answer(ctx, envelope);
        }
        else if (type == RemoteCodecs.FLOOD_TALLY_TYPE)
        {
            answer(ctx, envelope);
        }
    }

    private void answer(final ActorContext ctx, final Envelope request)
    {
        ctx.send(request.sender(), consumer.tally(HeapPeak.peakBytes()), RemoteCodecs.FLOOD_TALLY_TYPE, 0,
            request.cookie());
    }
}
