package io.troupe.testing;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The tests' one way to wait for something another thread does: poll a condition every couple of milliseconds
 * until it holds or a deadline passes, then fail with an {@link AssertionError} that says what was awaited
 * (and, for a value, what was last seen). Prefer a latch or a queue the awaited thread feeds
 * ({@link #latch}, {@link #next}) where the code offers one; poll only what can only be polled (counters,
 * session state).
 */
public final class Await
{
    /**
     * How long {@link #until(BooleanSupplier, String)} and friends wait when not told: generous, because a 2-core
     * machine running the whole suite (containers included) can be slow, and a passing wait returns as soon as its
     * condition holds. A test whose subject is a timeout states its own.
     */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(2);

    private Await()
    {
    }

    /**
     * Polls until the condition holds, for at most {@link #DEFAULT_TIMEOUT}.
     *
     * @param condition what to wait for.
     * @param what      what it means, for the failure message.
     * @throws AssertionError if it does not hold in time, or the thread is interrupted.
     */
    public static void until(final BooleanSupplier condition, final String what)
    {
        until(condition, DEFAULT_TIMEOUT, what);
    }

    /**
     * Polls until the condition holds.
     *
     * @param condition what to wait for.
     * @param timeout   how long at most.
     * @param what      what it means, for the failure message.
     * @throws AssertionError if it does not hold in time, or the thread is interrupted.
     */
    public static void until(final BooleanSupplier condition, final Duration timeout, final String what)
    {
        Objects.requireNonNull(what, "what");
        until(condition, timeout, () -> what);
    }

    /**
     * Polls until the condition holds; the failure message is made only on failure (a log's tail, say).
     *
     * @param condition what to wait for.
     * @param timeout   how long at most.
     * @param what      makes the failure message.
     * @throws AssertionError if it does not hold in time, or the thread is interrupted.
     */
    public static void until(final BooleanSupplier condition, final Duration timeout, final Supplier<String> what)
    {
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new AssertionError("timed out after " + timeout + " waiting until " + what.get());
            }
            pause(what);
        }
    }

    /**
     * Checks that a condition holds for a whole window, from now: for what must <em>not</em> happen (a second
     * notice, a stream that must stay stalled, a counter that must not move). The window is itself what is tested, so
     * it is named here rather than hidden in a sleep; it fails at the first poll that finds the condition false.
     *
     * @param window    how long the condition must keep holding.
     * @param condition what must keep holding.
     * @param what      what it means, for the failure message.
     * @throws AssertionError at the first moment it does not hold, or if the thread is interrupted.
     */
    public static void holdsFor(final Duration window, final BooleanSupplier condition, final String what)
    {
        Objects.requireNonNull(what, "what");
        final long startNs = System.nanoTime();
        final long endNs = startNs + window.toNanos();
        while (true)
        {
            if (!condition.getAsBoolean())
            {
                throw new AssertionError("did not hold for " + window + " (failed after " +
                    Duration.ofNanos(System.nanoTime() - startNs).toMillis() + " ms): " + what);
            }
            if (System.nanoTime() - endNs >= 0)
            {
                return;
            }
            pause(() -> what);
        }
    }

    /**
     * Polls a value until it equals the expected one, for at most {@link #DEFAULT_TIMEOUT}.
     *
     * @param value    the value to poll.
     * @param expected what it should become.
     * @param what     what the value is, for the failure message.
     * @param <T>      its type.
     * @throws AssertionError with the last value seen, if it does not become the expected one in time.
     */
    public static <T> void equal(final Supplier<T> value, final T expected, final String what)
    {
        equal(value, expected, DEFAULT_TIMEOUT, what);
    }

    /**
     * Polls a value until it equals the expected one.
     *
     * @param value    the value to poll.
     * @param expected what it should become.
     * @param timeout  how long at most.
     * @param what     what the value is, for the failure message.
     * @param <T>      its type.
     * @throws AssertionError with the last value seen, if it does not become the expected one in time.
     */
    public static <T> void equal(final Supplier<T> value, final T expected, final Duration timeout, final String what)
    {
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        T last = value.get();
        while (!Objects.equals(expected, last))
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new AssertionError("timed out after " + timeout + " waiting until " + what + " is " + expected +
                    "; last seen " + last);
            }
            pause(() -> what);
            last = value.get();
        }
    }

    /**
     * Waits for a latch to reach zero, for at most {@link #DEFAULT_TIMEOUT}.
     *
     * @param latch the latch.
     * @param what  what its counting down means, for the failure message.
     * @throws AssertionError with the count left, if it does not reach zero in time, or on interruption.
     */
    public static void latch(final CountDownLatch latch, final String what)
    {
        latch(latch, DEFAULT_TIMEOUT, what);
    }

    /**
     * Waits for a latch to reach zero.
     *
     * @param latch   the latch.
     * @param timeout how long at most.
     * @param what    what its counting down means, for the failure message.
     * @throws AssertionError with the count left, if it does not reach zero in time, or on interruption.
     */
    public static void latch(final CountDownLatch latch, final Duration timeout, final String what)
    {
        try
        {
            if (!latch.await(timeout.toNanos(), TimeUnit.NANOSECONDS))
            {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what + " (" +
                    latch.getCount() + " left)");
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + what, ex);
        }
    }

    /**
     * Takes the next element of a queue another thread feeds, for at most {@link #DEFAULT_TIMEOUT}.
     *
     * @param queue the queue.
     * @param <T>   element type.
     * @return the element.
     * @throws AssertionError if nothing arrives in time, or on interruption.
     */
    public static <T> T next(final BlockingQueue<T> queue)
    {
        return next(queue, DEFAULT_TIMEOUT);
    }

    /**
     * Takes the next element of a queue another thread feeds.
     *
     * @param queue   the queue.
     * @param timeout how long at most.
     * @param <T>     element type.
     * @return the element.
     * @throws AssertionError if nothing arrives in time, or on interruption.
     */
    public static <T> T next(final BlockingQueue<T> queue, final Duration timeout)
    {
        try
        {
            final T element = queue.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
            if (element == null)
            {
                throw new AssertionError("nothing arrived within " + timeout);
            }
            return element;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for the next element", ex);
        }
    }

    private static void pause(final Supplier<String> what)
    {
        LockSupport.parkNanos(POLL_NS);
        if (Thread.interrupted())
        {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting until " + what.get());
        }
    }
}
