package io.troupe.membership.internal;

import io.aeron.cluster.ElectionState;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class ElectionWatchTest
{
    private long state = ElectionState.CLOSED.code();
    private final CachedNanoClock clock = new CachedNanoClock();
    private final ElectionWatch watch = new ElectionWatch(() -> state, 1, clock);

    private void step(final ElectionState next, final long afterMs)
    {
        clock.advance(TimeUnit.MILLISECONDS.toNanos(afterMs));
        state = next.code();
        assertThat(watch.doWork()).isEqualTo(1);
    }

    @Test
    void anElectionIsLoggedStepByStepAndItsEndWithItsLength()
    {
        assertThat(watch.doWork()).isEqualTo(1); // the state it starts in: nothing to log yet
        assertThat(watch.doWork()).isZero();
        step(ElectionState.CANVASS, 10);
        step(ElectionState.NOMINATE, 50);
        step(ElectionState.CANDIDATE_BALLOT, 200);
        step(ElectionState.LEADER_READY, 300);
        step(ElectionState.CLOSED, 100);
        assertThat(watch.linesLogged()).isEqualTo(5);
    }

    @Test
    void anElectionThatNeverEndsIsSummedUpEveryTenSecondsAfterItsFirstSteps()
    {
        watch.doWork();
        step(ElectionState.CANVASS, 10);
        for (int i = 0; i < 100; i++) // 30 s of a loop like the one a refused log replication made
        {
            step(i % 2 == 0 ? ElectionState.FOLLOWER_LOG_REPLICATION : ElectionState.CANVASS, 300);
        }
        // the first 20 steps one by one, then one line per 10 s of the remaining 81 steps (24.3 s)
        assertThat(watch.linesLogged()).isEqualTo(ElectionWatch.STEPS_LOGGED + 2);
        step(ElectionState.CLOSED, 300);
        assertThat(watch.linesLogged()).isEqualTo(ElectionWatch.STEPS_LOGGED + 3); // its end is always logged
    }
}
