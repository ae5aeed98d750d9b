package io.troupe.bench;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * A plain Java thread's loop that sends to one actor as fast as it can: batches of {@value #BATCH} sends,
 * pausing while more than {@value #MAX_UNPROCESSED} events are unprocessed so the mailbox cannot grow
 * without bound.
 */
final class Producer implements Runnable
{
    /** Sends between two looks at the backlog. */
    static final int BATCH = 1024;
    /** Backlog above which producers pause. */
    static final long MAX_UNPROCESSED = 200_000;
    /** The one event every producer sends: shared and immutable, so a send allocates only its envelope. */
    static final String EVENT = "event";

    private static final int SPINS_BEFORE_YIELD = 100;
    private static final long PAUSE_NS = 20_000;

    private final ActorSystem system;
    private final ActorId target;
    private final FanInLedger ledger;
    private final AtomicBoolean running;

    /**
     * Creates the loop.
     *
     * @param system  the system to send through.
     * @param target  the receiving actor.
     * @param ledger  sent and received counts.
     * @param running cleared to stop the loop.
     */
    Producer(final ActorSystem system, final ActorId target, final FanInLedger ledger, final AtomicBoolean running)
    {
        this.system = system;
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
                system.send(target, EVENT);
            }
            ledger.onSent(BATCH);
        }
    }

    private void backOff()
    {
        int spins = 0;
        while (ledger.unprocessed() > MAX_UNPROCESSED && running.get())
        {
            if (spins < SPINS_BEFORE_YIELD)
            {
                spins++;
                Thread.onSpinWait();
            }
            else
            {
                // a paused producer sleeps rather than competing with the consumer for the 2 cores
                LockSupport.parkNanos(PAUSE_NS);
            }
        }
    }
}
