package io.troupe.bench;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import io.troupe.broker.Brokers;
import io.troupe.broker.Drop;
import io.troupe.broker.Go;
import io.troupe.broker.Side;

import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code broker.match}'s client or worker: keeps {@code window} requests outstanding at the broker on its
 * side, and on every answer ({@link Go} or {@link Drop}) asks again at once. A worker serves instantly: it
 * does nothing with its match. Its own counts of {@link Go} and {@link Drop} are published with release
 * stores for the driver, so counting costs no atomic read-modify-write.
 */
final class MatchAsker implements Behavior
{
    /** Sends the first {@code window} requests (a local event). */
    static final String START = "start";

    private final ActorId broker;
    private final Side side;
    private final int window;
    private final AtomicLong publishedGoes = new AtomicLong();
    private final AtomicLong publishedDrops = new AtomicLong();
    private long goes;
    private long drops;
    private long nextRef;

    /**
     * Creates the actor.
     *
     * @param broker the broker.
     * @param side   the side it asks on: {@link Side#ASK} for a client, {@link Side#ASK_R} for a worker.
     * @param window requests it keeps outstanding.
     */
    MatchAsker(final ActorId broker, final Side side, final int window)
    {
        this.broker = broker;
        this.side = side;
        this.window = window;
    }

    @Override
    public void receive(final ActorContext ctx, final Envelope envelope)
    {
        final int type = envelope.type();
        if (type == Go.TYPE)
        {
            publishedGoes.lazySet(++goes);
            ask(ctx);
        }
        else if (type == Drop.TYPE)
        {
            publishedDrops.lazySet(++drops);
            ask(ctx);
        }
        else if (envelope.event() == START)
        {
            for (int i = 0; i < window; i++)
            {
                ask(ctx);
            }
        }
    }

    private void ask(final ActorContext ctx)
    {
        final long ref = ++nextRef;
        Brokers.ask(ctx, broker, side, ref, null, ref);
    }

    /**
     * Matches this actor has been told of so far; any thread.
     *
     * @return the count of {@link Go} received.
     */
    long goes()
    {
        return publishedGoes.get();
    }

    /**
     * Requests of this actor the broker dropped so far; any thread.
     *
     * @return the count of {@link Drop} received.
     */
    long drops()
    {
        return publishedDrops.get();
    }
}
