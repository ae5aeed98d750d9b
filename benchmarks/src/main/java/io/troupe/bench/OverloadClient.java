package io.troupe.bench;

import io.troupe.actor.ActorContext;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import io.troupe.broker.Drop;
import io.troupe.broker.Go;
import org.HdrHistogram.Histogram;

/**
 * {@code broker.overload}'s client: receives the answers to the requests the {@link ArrivalGenerator} sent
 * to the broker on its behalf, and records the outcome of those answers it handles within the measurement
 * window ({@code windowStartNs <= System.nanoTime() < windowEndNs} when it handles the answer): the sojourn of
 * a {@link Go} (as the broker measured it at the match) or the count of a {@link Drop}. Answers handled
 * before or after the window are ignored, so a request still queued when the window closes counts for
 * nothing. On {@link #QUERY}, which the driver sends after the window, it replies with a {@link ClientTally}.
 */
final class OverloadClient implements Behavior
{
    /** Asks for the tally (sent with {@code ask}, after the window). */
    static final String QUERY = "query";
    /** Longest sojourn recorded as it is; longer ones are recorded as this. */
    static final long HIGHEST_NS = 3_600_000_000_000L;

    private final long windowStartNs;
    private final long windowEndNs;
    private final Histogram goSojournNs = new Histogram(HIGHEST_NS, 3);
    private long drops;

    /**
     * Creates the client.
     *
     * @param windowStartNs when the window opens, on {@link System#nanoTime()}.
     * @param windowEndNs   when it closes.
     */
    OverloadClient(final long windowStartNs, final long windowEndNs)
    {
        this.windowStartNs = windowStartNs;
        this.windowEndNs = windowEndNs;
    }

    @Override
    public void receive(final ActorContext ctx, final Envelope envelope)
    {
        final int type = envelope.type();
        if (type == Go.TYPE)
        {
            if (inWindow(System.nanoTime()))
            {
                goSojournNs.recordValue(Math.min(((Go)envelope.event()).sojournTimeNs(), HIGHEST_NS));
            }
        }
        else if (type == Drop.TYPE)
        {
            if (inWindow(System.nanoTime()))
            {
                drops++;
            }
        }
        else if (envelope.event() == QUERY)
        {
            ctx.reply(new ClientTally(goSojournNs.copy(), drops));
        }
    }

    private boolean inWindow(final long nowNs)
    {
        return nowNs - windowStartNs >= 0 && nowNs - windowEndNs < 0;
    }
}
