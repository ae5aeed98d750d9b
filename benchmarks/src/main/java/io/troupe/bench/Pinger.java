package io.troupe.bench;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import org.HdrHistogram.Histogram;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code remote.rtt}'s requester, on the measuring node: one {@link Ping} in flight to the remote echo. Each
 * ping carries its {@link System#nanoTime()} at send; when the echo comes back the round trip is the time now
 * minus that, and the next ping goes out from the same handler. Round trips before the warm-up deadline are
 * not recorded; after it, the next {@code samples} are, into a histogram handed to the driver when complete.
 *
 * <p>The first ping goes to the echo's service id; the echo's own id, the sender of its replies, is used from
 * then on.
 */
final class Pinger implements Behavior
{
    /** Starts the round trips (a local event). */
    static final String START = "start";
    /** Longest round trip recorded as it is; longer ones are recorded as this. */
    static final long HIGHEST_NS = 10_000_000_000L;

    private final long warmupNs;
    private final long samples;
    private final Histogram histogram = new Histogram(HIGHEST_NS, 3);
    private final CompletableFuture<Histogram> done = new CompletableFuture<>();
    private final AtomicLong roundTrips = new AtomicLong();
    private ActorId echo;
    private long warmupEndNs;
    private long completed;
    private long warmupRoundTrips = -1;

    /**
     * Creates the pinger.
     *
     * @param echo     the echo's service id on the other node.
     * @param warmupNs how long to run before recording.
     * @param samples  round trips to record after the warm-up.
     */
    Pinger(final ActorId echo, final long warmupNs, final long samples)
    {
        this.echo = echo;
        this.warmupNs = warmupNs;
        this.samples = samples;
    }

    @Override
    public void receive(final ActorContext ctx, final Envelope envelope)
    {
        if (envelope.type() == RemoteCodecs.PING_TYPE)
        {
            final long nowNs = System.nanoTime();
            final Ping ping = (Ping)envelope.event();
            echo = envelope.sender();
            completed++;
            roundTrips.lazySet(completed);
            if (nowNs - warmupEndNs >= 0)
            {
                if (warmupRoundTrips < 0)
                {
                    warmupRoundTrips = completed - 1; // this one is the first recorded
                }
                histogram.recordValue(Math.min(nowNs - ping.sentNs(), HIGHEST_NS));
                if (histogram.getTotalCount() == samples)
                {
                    done.complete(histogram);
                    return;
                }
            }
            ctx.send(echo, new Ping(System.nanoTime()), RemoteCodecs.PING_TYPE, 0, 0L);
        }
        else if (envelope.event() == START)
        {
            warmupEndNs = System.nanoTime() + warmupNs;
            ctx.send(echo, new Ping(System.nanoTime()), RemoteCodecs.PING_TYPE, 0, 0L);
        }
    }

    /**
     * Completes with the histogram of the recorded round trips, in ns, once all samples are in; read it only
     * then.
     *
     * @return the future.
     */
    CompletableFuture<Histogram> done()
    {
        return done;
    }

    /**
     * Round trips completed so far, warm-up included; any thread.
     *
     * @return the count.
     */
    long roundTrips()
    {
        return roundTrips.get();
    }

    /**
     * Round trips of the warm-up; read after {@link #done()} completed.
     *
     * @return the count.
     */
    long warmupRoundTrips()
    {
        return warmupRoundTrips;
    }
}
