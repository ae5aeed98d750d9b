package io.troupe.bench;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredReason;
import io.troupe.actor.CreditAccount;
import io.troupe.actor.PollingIngress;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * {@code flow.flood}'s producer, on the measuring node: an ingress whose source never runs dry. Every poll
 * sends {@value #BATCH} tracked {@link Chunk}s to the consumer, so each one ends either handled by the consumer
 * or reported back as {@link Undelivered}, which the producer counts by reason. It follows the
 * {@link PollingIngress} pattern: with flow control on it stops while its account is in debt and resumes on
 * {@code FundsCleared}; with flow control off nothing ever stops it.
 */
final class FloodProducer extends PollingIngress
{
    /** Chunks sent per poll. */
    static final int BATCH = 32;

    private static final Duration IDLE_DELAY = Duration.ofMillis(10);
    private static final byte[] DATA = "flood of sixteen".getBytes(StandardCharsets.US_ASCII);

    private final ActorId consumer;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLongArray undelivered = new AtomicLongArray(UndeliveredReason.values().length);
    private volatile boolean running = true;
    private long nextSeq;

    /**
     * Creates the producer.
     *
     * @param account  the account its chunks are charged to.
     * @param consumer the consumer's service id on the other node.
     */
    FloodProducer(final CreditAccount account, final ActorId consumer)
    {
        super(account, BATCH, IDLE_DELAY);
        this.consumer = consumer;
    }

    @Override
    protected int poll(final ActorContext ctx, final int limit)
    {
        if (!running)
        {
            return 0;
        }
        long seq = nextSeq;
        for (int i = 0; i < limit; i++)
        {
            ctx.send(consumer, new Chunk(seq, DATA), RemoteCodecs.CHUNK_TYPE, Envelope.FLAG_TRACK_DELIVERY, seq);
            seq++;
        }
        nextSeq = seq;
        sent.lazySet(seq);
        return limit;
    }

    @Override
    protected void onOther(final ActorContext ctx, final Envelope envelope)
    {
        if (envelope.event() instanceof Undelivered notice)
        {
            undelivered.incrementAndGet(notice.reason().ordinal());
        }
    }

    /** Stops sending, from any thread; polls after this read nothing. */
    void stop()
    {
        running = false;
    }

    /**
     * Chunks sent so far, from any thread.
     *
     * @return the count.
     */
    long sent()
    {
        return sent.get();
    }

    /**
     * Chunks reported undelivered so far, for one reason, from any thread.
     *
     * @param reason the reason.
     * @return the count.
     */
    long undelivered(final UndeliveredReason reason)
    {
        return undelivered.get(reason.ordinal());
    }

    /**
     * Chunks reported undelivered so far, for any reason, from any thread.
     *
     * @return the count.
     */
    long undelivered()
    {
        long total = 0;
        for (int i = 0; i < undelivered.length(); i++)
        {
            total += undelivered.get(i);
        }
        return total;
    }
}
