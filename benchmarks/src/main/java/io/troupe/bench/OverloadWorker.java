package io.troupe.bench;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import io.troupe.broker.Brokers;
import io.troupe.broker.Drop;
import io.troupe.broker.Go;
import io.troupe.broker.Side;

import java.time.Duration;

/**
 * {@code broker.overload}'s worker: serves one client at a time. It asks the broker on {@link Side#ASK_R};
 * on {@link Go} it is busy for the service time, simulated with a timer ({@link ActorContext#schedule}, never a
 * sleep), then asks again. Busy time runs from the handling of the Go to the handling of the timer, so a
 * timer that fires late (the wheel ticks about every millisecond) counts as service: the worker was not
 * available meanwhile. The part of each service inside the measurement window is added up; on {@link #QUERY},
 * which the driver sends after the window, it replies with a {@link WorkerTally}, a service still running
 * then counted up to the window's end.
 */
final class OverloadWorker implements Behavior
{
    /** Sends the first request (a local event). */
    static final String START = "start";
    /** Asks for the tally (sent with {@code ask}, after the window). */
    static final String QUERY = "query";
    /** The service is over (the worker's own timer). */
    private static final String DONE = "done";

    private final ActorId broker;
    private final Duration serviceTime;
    private final long windowStartNs;
    private final long windowEndNs;
    private boolean busy;
    private long busySinceNs;
    private long busyInWindowNs;
    private long served;
    private long servedNs;
    private long drops;
    private long nextRef;

    /**
     * Creates the worker.
     *
     * @param broker        the broker.
     * @param serviceTime   how long it is busy per match.
     * @param windowStartNs when the window opens, on {@link System#nanoTime()}.
     * @param windowEndNs   when it closes.
     */
    OverloadWorker(final ActorId broker, final Duration serviceTime, final long windowStartNs, final long windowEndNs)
    {
        this.broker = broker;
        this.serviceTime = serviceTime;
        this.windowStartNs = windowStartNs;
        this.windowEndNs = windowEndNs;
    }

    @Override
    public void receive(final ActorContext ctx, final Envelope envelope)
    {
        final int type = envelope.type();
        final Object event = envelope.event();
        if (type == Go.TYPE)
        {
            busy = true;
            busySinceNs = System.nanoTime();
            ctx.schedule(serviceTime, DONE);
        }
        else if (type == Drop.TYPE)
        {
            drops++;
            ask(ctx);
        }
        else if (event == DONE)
        {
            final long nowNs = System.nanoTime();
            busy = false;
            busyInWindowNs += inWindowNs(busySinceNs, nowNs);
            if (nowNs - windowStartNs >= 0 && nowNs - windowEndNs < 0)
            {
                served++;
                servedNs += nowNs - busySinceNs;
            }
            ask(ctx);
        }
        else if (event == START)
        {
            ask(ctx);
        }
        else if (event == QUERY)
        {
            final long runningNs = busy ? inWindowNs(busySinceNs, System.nanoTime()) : 0;
            ctx.reply(new WorkerTally(busyInWindowNs + runningNs, served, servedNs, drops));
        }
    }

    private void ask(final ActorContext ctx)
    {
        final long ref = ++nextRef;
        Brokers.ask(ctx, broker, Side.ASK_R, ref, null, ref);
    }

    /** The length of the part of [fromNs, toNs) inside the window. */
    private long inWindowNs(final long fromNs, final long toNs)
    {
        final long startNs = fromNs - windowStartNs > 0 ? fromNs : windowStartNs;
        final long endNs = toNs - windowEndNs < 0 ? toNs : windowEndNs;
        return Math.max(0, endNs - startNs);
    }
}
