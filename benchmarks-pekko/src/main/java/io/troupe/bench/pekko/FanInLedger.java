package io.troupe.bench.pekko;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code local.fanin}'s bookkeeping: messages sent by all producers, and messages received by the one actor.
 *
 * <p>Thread safety: any thread may add to {@link #onSent}; only the receiving actor calls {@link #onReceived},
 * publishing its own running total with a release store, so receiving costs no atomic read-modify-write.
 */
final class FanInLedger
{
    private final LongAdder sent = new LongAdder();
    private final AtomicLong received = new AtomicLong();

    /**
     * Adds a batch of sends.
     *
     * @param count messages just sent.
     */
    void onSent(final int count)
    {
        sent.add(count);
    }

    /**
     * Publishes the receiver's total. Only the receiving actor.
     *
     * @param total messages received so far.
     */
    void onReceived(final long total)
    {
        received.lazySet(total);
    }

    /**
     * Messages received so far.
     *
     * @return the count.
     */
    long received()
    {
        return received.get();
    }

    /**
     * Messages sent so far.
     *
     * @return the count.
     */
    long sent()
    {
        return sent.sum();
    }

    /**
     * Messages sent and not yet received. The receive count is read first, so the result is never too small.
     *
     * @return the backlog.
     */
    long unprocessed()
    {
        final long receivedSoFar = received.get();
        return sent.sum() - receivedSoFar;
    }
}
