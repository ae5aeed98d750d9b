package io.troupe.testing;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AwaitTest
{
    private static final Duration SHORT = Duration.ofMillis(50);

    @Test
    void untilReturnsOnceTheConditionHoldsAndFailsWithWhatWasAwaited()
    {
        final AtomicInteger polls = new AtomicInteger();
        Await.until(() -> polls.incrementAndGet() >= 3, "three polls");
        assertThat(polls).hasValue(3);

        assertThatThrownBy(() -> Await.until(() -> false, SHORT, "never")).isInstanceOf(AssertionError.class)
            .hasMessage("timed out after PT0.05S waiting until never");
        assertThatThrownBy(() -> Await.until(() -> false, SHORT, () -> "made " + "late"))
            .hasMessage("timed out after PT0.05S waiting until made late");
    }

    @Test
    void equalReportsTheLastValueSeen()
    {
        final AtomicInteger value = new AtomicInteger();
        Await.equal(value::incrementAndGet, 5, "the count");
        assertThatThrownBy(() -> Await.equal(() -> 4, 5, SHORT, "the count"))
            .hasMessage("timed out after PT0.05S waiting until the count is 5; last seen 4");
    }

    @Test
    void holdsForWaitsTheWholeWindowAndFailsAtTheFirstBreak()
    {
        final long startNs = System.nanoTime();
        final AtomicInteger polls = new AtomicInteger();
        Await.holdsFor(SHORT, () -> polls.incrementAndGet() > 0, "always");
        assertThat(System.nanoTime() - startNs).isGreaterThanOrEqualTo(SHORT.toNanos());
        assertThat(polls.get()).isGreaterThan(1);

        final AtomicInteger count = new AtomicInteger();
        assertThatThrownBy(() -> Await.holdsFor(Duration.ofSeconds(30), () -> count.incrementAndGet() < 3, "under 3"))
            .isInstanceOf(AssertionError.class).hasMessageStartingWith("did not hold for PT30S (failed after ")
            .hasMessageEndingWith(" ms): under 3");
        assertThat(count).hasValue(3);
    }

    @Test
    void latchAndNextFailWithWhatIsLeft()
    {
        final CountDownLatch latch = new CountDownLatch(2);
        latch.countDown();
        assertThatThrownBy(() -> Await.latch(latch, SHORT, "two signals"))
            .hasMessage("timed out after PT0.05S waiting for two signals (1 left)");
        latch.countDown();
        Await.latch(latch, "two signals");

        final LinkedBlockingQueue<String> queue = new LinkedBlockingQueue<>();
        assertThatThrownBy(() -> Await.next(queue, SHORT)).hasMessage("nothing arrived within PT0.05S");
        queue.add("x");
        assertThat(Await.next(queue)).isEqualTo("x");
    }

    @Test
    void anInterruptedWaitFailsAndKeepsTheInterrupt()
    {
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> Await.until(() -> false, Duration.ofSeconds(5), "an interrupt"))
            .hasMessage("interrupted waiting until an interrupt");
        assertThat(Thread.interrupted()).isTrue();
    }
}
