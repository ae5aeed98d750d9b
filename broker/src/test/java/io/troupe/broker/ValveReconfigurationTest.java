package io.troupe.broker;

import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A regulator reconfigured live creates the new valve with {@code spec.newValve(oldValve.size())}: the held
 * slots carry over, whatever the two types, and the new valve's rule applies from then on.
 */
class ValveReconfigurationTest
{
    private static final long MS = 1_000_000L;
    private static final long T0 = 3_000 * MS;
    private static final Duration TARGET = Duration.ofMillis(100);
    private static final Duration INTERVAL = Duration.ofSeconds(1);

    static Stream<Named<ValveSpec>> specs()
    {
        return Stream.of(
            Named.of("open", new OpenValveSpec(4)),
            Named.of("rate", new RateValveSpec(2, INTERVAL, 4)),
            Named.of("relative", new RelativeValveSpec(TARGET, 1, 4)),
            Named.of("codel", new CodelValveSpec(TARGET, INTERVAL, 1, 4)));
    }

    @ParameterizedTest
    @MethodSource("specs")
    void everyValveStartsWithTheHeldSlotsAndReleasesThemOneCloseAtATime(final ValveSpec spec)
    {
        final Valve valve = spec.newValve(7);
        assertThat(valve.size()).isEqualTo(7);
        assertThat(valve.tryOpen(T0)).as("above max").isFalse();

        for (int i = 6; i >= 0; i--)
        {
            valve.close(T0);
            assertThat(valve.size()).isEqualTo(i);
        }
    }

    @ParameterizedTest
    @MethodSource("specs")
    void aNegativeSlotCountIsRefused(final ValveSpec spec)
    {
        assertThatThrownBy(() -> spec.newValve(-1))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("heldSlots = -1");
    }

    @Test
    void openToRelativeKeepsTheCountThenShrinksToMaxAndOnToMinOnItsOwnRule()
    {
        final OpenValve open = (OpenValve)new OpenValveSpec(8).newValve(0);
        for (int i = 0; i < 8; i++)
        {
            open.tryOpen(T0);
        }

        final RelativeValve relative = (RelativeValve)new RelativeValveSpec(TARGET, 2, 5).newValve(open.size());
        assertThat(relative.size()).isEqualTo(8);
        assertThat(relative.tryOpen(T0)).isFalse();
        assertThat(relative.keep(T0)).isFalse();
        assertThat(relative.keep(T0)).isFalse();
        assertThat(relative.keep(T0)).isFalse();
        assertThat(relative.keep(T0)).as("at max, relative time unknown: kept").isTrue();
        assertThat(relative.size()).isEqualTo(5);

        relative.update(TARGET.toNanos(), T0 + 1);
        assertThat(relative.keep(T0 + 2)).isFalse();
        assertThat(relative.keep(T0 + 2)).isFalse();
        assertThat(relative.keep(T0 + 2)).isFalse();
        assertThat(relative.keep(T0 + 2)).isTrue();
        assertThat(relative.size()).isEqualTo(2);
    }

    @Test
    void relativeToCodelStartsFreshAndWaitsAnIntervalBeforeGrowing()
    {
        final RelativeValve relative = (RelativeValve)new RelativeValveSpec(TARGET, 0, 10).newValve(0);
        relative.update(0, T0);
        relative.tryOpen(T0);
        relative.update(0, T0 + 1);
        relative.tryOpen(T0 + 1);
        assertThat(relative.size()).isEqualTo(2);

        final CodelValve codel = (CodelValve)new CodelValveSpec(TARGET, INTERVAL, 1, 10).newValve(relative.size());
        assertThat(codel.size()).isEqualTo(2);
        assertThat(codel.tryOpen(T0 + 2)).as("no sample yet").isFalse();
        codel.update(0, T0 + 2);
        assertThat(codel.tryOpen(T0 + 3)).isFalse();
        assertThat(codel.tryOpen(T0 + 2 + INTERVAL.toNanos())).isTrue();
        assertThat(codel.size()).isEqualTo(3);
    }

    @Test
    void codelToRateKeepsTheCountAndHeldSlotsDoNotCountAsOpens()
    {
        final CodelValve codel = (CodelValve)new CodelValveSpec(TARGET, INTERVAL, 3, 10).newValve(0);
        codel.tryOpen(T0);
        codel.tryOpen(T0);
        codel.tryOpen(T0);

        final RateValve rate = (RateValve)new RateValveSpec(2, INTERVAL, 6).newValve(codel.size());
        assertThat(rate.size()).isEqualTo(3);
        assertThat(rate.tryOpen(T0 + 1)).isTrue();
        assertThat(rate.tryOpen(T0 + 1)).isTrue();
        assertThat(rate.tryOpen(T0 + 1)).as("limit").isFalse();
        assertThat(rate.size()).isEqualTo(5);
        assertThat(rate.keep(T0 + 2)).isTrue();
    }

    @Test
    void rateToOpenKeepsTheCountAndForgetsTheWindow()
    {
        final RateValve rate = (RateValve)new RateValveSpec(1, INTERVAL, 10).newValve(0);
        rate.tryOpen(T0);
        assertThat(rate.tryOpen(T0)).isFalse();

        final OpenValve open = (OpenValve)new OpenValveSpec(3).newValve(rate.size());
        assertThat(open.size()).isEqualTo(1);
        assertThat(open.tryOpen(T0)).isTrue();
        assertThat(open.tryOpen(T0)).isTrue();
        assertThat(open.tryOpen(T0)).isFalse();
    }
}
