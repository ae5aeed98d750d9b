package io.troupe.actor.internal.executor;

import io.troupe.actor.internal.mailbox.Mailbox;
import io.troupe.actor.internal.mailbox.SimpleMailbox;
import io.troupe.testing.Await;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Workers on their threads, each an Agrona agent under its own runner: thread names, an exception that escapes a
 * duty cycle (reported, the worker goes on), and stopping (every thread ends, no error reported for it).
 */
class WorkerThreadTest
{
    @Test
    void aWorkerSurvivesAnExceptionOutsideAHandlerAndStopsCleanly() throws Exception
    {
        final BlockingQueue<Throwable> errors = new LinkedBlockingQueue<>();
        final List<String> threads = new CopyOnWriteArrayList<>();
        final CountDownLatch ranAfterFailure = new CountDownLatch(1);
        final ExecutorPool pool = new ExecutorPool(0, "test", 2, 8, 1_000_000L, 0L,
            (mailbox, worker) ->
            {
                threads.add(Thread.currentThread().getName());
                if (mailbox.hint() == 1)
                {
                    throw new IllegalStateException("escaped the runner");
                }
                ranAfterFailure.countDown();
            },
            worker -> null, SystemNanoClock.INSTANCE);
        pool.start("t-", errors::add);

        pool.schedule(mailbox(1));
        assertThat(Await.next(errors)).isInstanceOf(IllegalStateException.class).hasMessage("escaped the runner");
        pool.schedule(mailbox(2));
        Await.latch(ranAfterFailure, "a worker runs mailboxes after the failure");

        assertThat(threads).allSatisfy(name -> assertThat(name).isIn("t-test-0", "t-test-1"));
        for (final Worker worker : pool.workers())
        {
            assertThat(worker.roleName()).isEqualTo(worker.thread().getName());
        }

        assertThat(pool.stop(Await.DEFAULT_TIMEOUT.toNanos())).isTrue();
        for (final Worker worker : pool.workers())
        {
            assertThat(worker.thread().isAlive()).isFalse();
        }
        assertThat(errors).as("stopping reports nothing").isEmpty();
    }

    private static Mailbox mailbox(final int hint)
    {
        return new SimpleMailbox(hint, 0);
    }
}
