package io.troupe.interconnect;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The back-off's parks double up to the longest park ({@code troupe.transport.max-idle-park}) and stay there. */
class AgentIdleTest
{
    @Test
    void theParksOfAnIdleAgentGrowToTheDefault500MicrosecondsAndNoFurther()
    {
        assertThat(parksUpTo(new AgentIdle())).isEqualTo(TimeUnit.MICROSECONDS.toNanos(500));
    }

    @Test
    void aLongerMaxIdleParkIsReachedAndAWorkingCycleStartsTheParksShortAgain()
    {
        final AgentIdle idle = new AgentIdle(TimeUnit.MILLISECONDS.toNanos(2));
        assertThat(parksUpTo(idle)).isEqualTo(TimeUnit.MILLISECONDS.toNanos(2));
        idle.idle(1);
        assertThat(idle.nextParkNs()).isEqualTo(AgentIdle.DEFAULT_MIN_PARK_NS);
    }

    @Test
    void aMaxIdleParkBelowTheFirstParkIsTheFirstPark()
    {
        assertThat(parksUpTo(new AgentIdle(1_000))).isEqualTo(AgentIdle.DEFAULT_MIN_PARK_NS);
    }

    /** Idles through the spin and yield windows and a dozen doubling parks; the park it settled on. */
    private static long parksUpTo(final AgentIdle idle)
    {
        final long start = System.nanoTime();
        while (System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(1)) // past the spin and yield windows
        {
            idle.idle(0);
        }
        for (int i = 0; i < 12; i++) // 20 us doubling twelve times: past any cap up to 80 ms
        {
            idle.idle(0);
        }
        return idle.nextParkNs();
    }
}
