package io.troupe.bench;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The fan-in workload's bookkeeping: events sent by all producers, and events received by the one actor.
 *
 * <p>Thread safety: any thread may add to {@link #onSent}; only the receiving actor calls
 * {@link #onReceived}, publishing its own running total with a release store, so receiving costs no atomic
 * read-modify-write.
 */
final class FanInLedger
{
    private final LongAdder sent = new LongAdder();
    private final AtomicLong received = new AtomicLong();

    /**
     * Adds a batch of sends.
     *
     * @param count events just sent.
     */
    void onSent(final int count)
    {
        sent.add(count);
    }

    /**
     * Publishes the receiver's total. Only the receiving actor.
     *
     * @param total events received so far.
     */
    void onReceived(final long total)
    {
        received.lazySet(total);
    }

    /**
     * Events received so far.
     *
     * @return the count.
     */
    long received()
    {
        return received.get();
    }

    /**
     * Events sent so far.
     *
     * @return the count.
     */
    long sent()
    {
        return sent.sum();
    }

    /**
     * Events sent and not yet received. The receive count is read first, so the result is never too small.
     *
     * @return the backlog.
     */
    long unprocessed()
    {
        final long receivedSoFar = received.get();
        return sent.sum() - receivedSoFar;
    }
}
