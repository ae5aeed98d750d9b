package io.troupe.actor.internal.executor;

import io.troupe.actor.internal.mailbox.Mailbox;
import io.troupe.actor.internal.mailbox.SimpleMailbox;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The worker's scheduling, one duty cycle at a time on a pool whose threads never start and whose clock the
 * test moves: which mailbox runs next (hand-off, own queue, the global queue, stealing), the activation budget
 * of a hand-off, and the busy and idle time counted. No thread, no sleeping.
 */
class WorkerDutyCycleTest
{
    private static final int EVENTS_PER_ACTIVATION = 3;

    private final CachedNanoClock clock = new CachedNanoClock();
    private final List<String> ran = new ArrayList<>();
    /** What the runner does during an activation, besides recording it: the test's hook into the worker. */
    private BiConsumer<Mailbox, Worker> during = (mailbox, worker) ->
    {
    };
    private final ExecutorPool pool = new ExecutorPool(0, "test", 2, EVENTS_PER_ACTIVATION, 1_000_000L, 0L,
        (mailbox, worker) ->
        {
            ran.add("w" + worker.index() + ":m" + mailbox.hint());
            during.accept(mailbox, worker);
        },
        worker -> null, clock);
    private final Worker zero = pool.workers()[0];
    private final Worker one = pool.workers()[1];

    @BeforeEach
    void start()
    {
        clock.update(1_000);
        zero.onStart();
        one.onStart();
    }

    private static Mailbox mailbox(final int hint)
    {
        return new SimpleMailbox(hint, 0);
    }

    @Test
    void aWorkerRunsWhatIsScheduledOnceAndThenFindsNothing()
    {
        pool.schedule(mailbox(1));
        pool.schedule(mailbox(2));
        assertThat(zero.doWork()).isEqualTo(1);
        assertThat(one.doWork()).isEqualTo(1);
        assertThat(zero.doWork()).isZero();
        assertThat(ran).containsExactly("w0:m1", "w1:m2");
        assertThat(zero.activations()).isEqualTo(1);
    }

    @Test
    void aMailboxActivatedAsTheCurrentOneFinishesRunsNextOnTheSameWorkerUpToTheBudget()
    {
        final Mailbox pingPong = mailbox(7);
        during = (mailbox, worker) -> worker.activate(mailbox, true); // the actor woke itself (ping-pong)
        pool.schedule(pingPong);
        for (int i = 0; i < 10; i++)
        {
            zero.doWork();
        }
        assertThat(ran).containsOnly("w0:m7").hasSize(10);
        assertThat(one.doWork()).as("a hand-off is not stealable").isZero();

        // with someone waiting in the global queue, the hand-off yields once its budget is spent
        ran.clear();
        pool.schedule(mailbox(8));
        during = (mailbox, worker) ->
        {
            if (mailbox == pingPong)
            {
                worker.activate(mailbox, true);
            }
        };
        // a worker looks at the global queue first every GLOBAL_CHECK_INTERVAL turns of its own queues, and a
        // hand-off takes a turn once its budget is spent: the outside submission waits a bounded number of runs
        final int bound = EVENTS_PER_ACTIVATION * (Worker.GLOBAL_CHECK_INTERVAL + 1);
        for (int i = 0; i < bound && !ran.contains("w0:m8"); i++)
        {
            zero.doWork();
        }
        assertThat(ran).as("the outside submission ran within %d runs", bound).contains("w0:m8");
    }

    @Test
    void anIdleWorkerStealsFromAnotherWorkersQueue()
    {
        during = (mailbox, worker) ->
        {
            if (mailbox.hint() == 1)
            {
                worker.activate(mailbox(2), false); // woken while the current one keeps running: queued locally
                worker.activate(mailbox(3), false);
            }
        };
        pool.schedule(mailbox(1));
        assertThat(zero.doWork()).isEqualTo(1);
        assertThat(one.doWork()).isEqualTo(1);
        assertThat(one.steals()).isEqualTo(1);
        assertThat(zero.doWork()).isEqualTo(1);
        assertThat(ran).containsExactly("w0:m1", "w1:m2", "w0:m3");
    }

    @Test
    void busyAndIdleTimeFollowTheClock()
    {
        assertThat(zero.doWork()).isZero(); // idle from the start
        clock.advance(500);
        pool.schedule(mailbox(1));
        during = (mailbox, worker) -> clock.advance(200); // the activation takes 200 ns
        assertThat(zero.doWork()).isEqualTo(1);
        assertThat(zero.doWork()).isZero(); // the busy period ends here
        assertThat(zero.idleNs()).isEqualTo(500);
        assertThat(zero.busyNs()).isEqualTo(200);
    }

    @Test
    void moreMailboxesThanTheGlobalQueueHoldsAllRunOnce()
    {
        final int count = ExecutorPool.GLOBAL_CAPACITY * 2 + 3;
        for (int i = 0; i < count; i++)
        {
            pool.schedule(mailbox(i));
        }
        assertThat(pool.hasGlobal()).isTrue();
        int runs = 0;
        while (zero.doWork() + one.doWork() > 0)
        {
            runs++;
        }
        assertThat(pool.hasGlobal()).as("the overflow's count is back to 0").isFalse();
        final Set<String> hints = new HashSet<>();
        for (final String entry : ran)
        {
            assertThat(hints.add(entry.substring(entry.indexOf(':') + 1))).as("%s ran once", entry).isTrue();
        }
        assertThat(hints).hasSize(count);
        assertThat(runs).isPositive();
    }
}
