package io.troupe.bench.pekko;

import org.HdrHistogram.Histogram;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractMatchingBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code remote.rtt}'s requester, on the measuring node: one {@link Ping} in flight to the remote echo. Each ping
 * carries its {@link System#nanoTime()} at send; when the echo comes back the round trip is the time now minus
 * that, and the next ping goes out from the same handler. Round trips before the warm-up deadline are not
 * recorded; after it, the next {@code samples} are, into a histogram (3 significant digits, ns) handed to the
 * driver when complete; then the pinger stops pinging.
 */
final class Pinger extends AbstractMatchingBehavior<PingerMessage>
{
    /** Longest round trip recorded as it is; longer ones are recorded as this. */
    static final long HIGHEST_NS = 10_000_000_000L;

    private final ActorRef<EchoMessage> echo;
    private final long warmupNs;
    private final long samples;
    private final Histogram histogram = new Histogram(HIGHEST_NS, 3);
    private final Results results;
    private long warmupEndNs;
    private long completed;
    private long warmupRoundTrips = -1;

    /** The pinger's local command. */
    enum Command implements PingerMessage
    {
        /** Tells the echo where to reply, then sends the first ping. */
        START
    }

    /**
     * What the pinger shares with the driver.
     *
     * @param done       completes with the histogram once all samples are in.
     * @param roundTrips round trips completed so far, warm-up included.
     * @param warmup     round trips of the warm-up, set before {@code done} completes.
     */
    record Results(CompletableFuture<Histogram> done, AtomicLong roundTrips, AtomicLong warmup)
    {
        /**
         * Creates empty results.
         *
         * @return the results.
         */
        static Results create()
        {
            return new Results(new CompletableFuture<>(), new AtomicLong(), new AtomicLong());
        }
    }

    private Pinger(final ActorContext<PingerMessage> context, final ActorRef<EchoMessage> echo, final long warmupNs,
        final long samples, final Results results)
    {
        super(context);
        this.echo = echo;
        this.warmupNs = warmupNs;
        this.samples = samples;
        this.results = results;
    }

    /**
     * The behaviour.
     *
     * @param echo     the remote echo, resolved once.
     * @param warmupNs how long to run before recording.
     * @param samples  round trips to record after the warm-up.
     * @param results  where the results go.
     * @return the behaviour.
     */
    static Behavior<PingerMessage> create(final ActorRef<EchoMessage> echo, final long warmupNs, final long samples,
        final Results results)
    {
        return Behaviors.setup(context -> new Pinger(context, echo, warmupNs, samples, results));
    }

    @Override
    public Behavior<PingerMessage> onMessage(final PingerMessage message)
    {
        if (message instanceof Ping ping)
        {
            final long nowNs = System.nanoTime();
            completed++;
            results.roundTrips().lazySet(completed);
            if (nowNs - warmupEndNs >= 0)
            {
                if (warmupRoundTrips < 0)
                {
                    warmupRoundTrips = completed - 1; // this one is the first recorded
                }
                histogram.recordValue(Math.min(nowNs - ping.sentNs(), HIGHEST_NS));
                if (histogram.getTotalCount() == samples)
                {
                    results.warmup().set(warmupRoundTrips);
                    results.done().complete(histogram);
                    return this;
                }
            }
            echo.tell(new Ping(System.nanoTime()));
        }
        else if (message == Command.START)
        {
            warmupEndNs = System.nanoTime() + warmupNs;
            echo.tell(new EchoTo(getContext().getSelf().narrow()));
            echo.tell(new Ping(System.nanoTime()));
        }
        return this;
    }
}
