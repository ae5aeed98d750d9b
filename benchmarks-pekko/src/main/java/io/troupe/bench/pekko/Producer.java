package io.troupe.bench.pekko;

import org.apache.pekko.actor.typed.ActorRef;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * A plain Java thread's loop that tells one actor as fast as it can: batches of {@value #BATCH} tells, pausing
 * while more than {@value #MAX_UNPROCESSED} messages are unprocessed so the mailbox cannot grow without bound.
 * A paused producer spins briefly, then parks {@value #PAUSE_NS} ns at a time and re-checks: on 2 cores a
 * producer that yields in a loop would keep taking CPU from the consumer.
 */
final class Producer implements Runnable
{
    /** Tells between two looks at the backlog. */
    static final int BATCH = 1024;
    /** Backlog above which producers pause. */
    static final long MAX_UNPROCESSED = 200_000;
    /** The one message every producer sends: shared and immutable, so a tell allocates only its envelope. */
    static final String EVENT = "event";

    private static final int SPINS_BEFORE_PARK = 100;
    private static final long PAUSE_NS = 20_000;

    private final ActorRef<Object> target;
    private final FanInLedger ledger;
    private final AtomicBoolean running;

    /**
     * Creates the loop.
     *
     * @param target  the receiving actor.
     * @param ledger  sent and received counts.
     * @param running cleared to stop the loop.
     */
    Producer(final ActorRef<Object> target, final FanInLedger ledger, final AtomicBoolean running)
    {
        this.target = target;
        this.ledger = ledger;
        this.running = running;
    }

    @Override
    public void run()
    {
        while (running.get())
        {
            if (ledger.unprocessed() > MAX_UNPROCESSED)
            {
                backOff();
                continue;
            }
            for (int i = 0; i < BATCH; i++)
            {
                target.tell(EVENT);
            }
            ledger.onSent(BATCH);
        }
    }

    private void backOff()
    {
        int spins = 0;
        while (ledger.unprocessed() > MAX_UNPROCESSED && running.get())
        {
            if (spins < SPINS_BEFORE_PARK)
            {
                spins++;
                Thread.onSpinWait();
            }
            else
            {
                LockSupport.parkNanos(PAUSE_NS);
            }
        }
    }
}
