package io.troupe.chaos.workload;

import io.troupe.actor.ActorContext;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;

import java.time.Duration;

/**
 * The flood's receiving service ({@value FloodProducer#SINK}) on every node: counts what arrives and, every 100 ms
 * while the count moves, writes {@code K,ms,received} to {@code frx-<node>-<inc>.csv}.
 */
final class FloodSink implements Behavior
{
    static final Object START = "flood-sink-start";
    private static final Object SAMPLE = "flood-sink-sample";
    private static final Duration SAMPLE_PERIOD = Duration.ofMillis(100);

    private final LedgerFile log;
    private long received;
    private long written = -1;

    FloodSink(final LedgerFile log)
    {
        this.log = log;
    }

    @Override
    public void receive(final ActorContext ctx, final Envelope envelope)
    {
        final Object event = envelope.event();
        if (event instanceof FloodEvent)
        {
            received++;
        }
        else if (event == START || event == SAMPLE)
        {
            if (received != written)
            {
                written = received;
                log.line("K", received);
                log.flush();
            }
            ctx.schedule(SAMPLE_PERIOD, SAMPLE);
        }
    }
}
