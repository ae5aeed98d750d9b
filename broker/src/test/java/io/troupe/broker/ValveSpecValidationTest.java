package io.troupe.broker;

import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Invalid valve specs are refused with a message naming the spec, the field, the bad value and what is allowed. */
class ValveSpecValidationTest
{
    private static final Duration ONE_S = Duration.ofSeconds(1);
    private static final Duration TOO_LONG = Duration.ofSeconds(Long.MAX_VALUE);

    private static Arguments invalid(final String description, final Executable create, final String message)
    {
        return Arguments.of(Named.of(description, create), message);
    }

    static Stream<Arguments> invalidSpecs()
    {
        return Stream.of(
            invalid("open: negative max", () -> new OpenValveSpec(-1), "OpenValveSpec: max = -1 must be at least 0"),
            invalid("rate: limit 0", () -> new RateValveSpec(0, ONE_S, 1),
                "RateValveSpec: limit = 0 must be 1..1048576"),
            invalid("rate: limit over MAX_LIMIT", () -> new RateValveSpec(RateValveSpec.MAX_LIMIT + 1, ONE_S, 1),
                "RateValveSpec: limit = 1048577 must be 1..1048576"),
            invalid("rate: no interval", () -> new RateValveSpec(1, null, 1),
                "RateValveSpec: interval = null must be a duration"),
            invalid("rate: zero interval", () -> new RateValveSpec(1, Duration.ZERO, 1),
                "RateValveSpec: interval = PT0S must be positive"),
            invalid("rate: negative interval", () -> new RateValveSpec(1, Duration.ofMillis(-1), 1),
                "RateValveSpec: interval = PT-0.001S must be positive"),
            invalid("rate: interval beyond nanoseconds", () -> new RateValveSpec(1, TOO_LONG, 1),
                "RateValveSpec: interval = " + TOO_LONG + " must fit in a long of nanoseconds"),
            invalid("rate: negative max", () -> new RateValveSpec(1, ONE_S, -2),
                "RateValveSpec: max = -2 must be at least 0"),
            invalid("relative: no target", () -> new RelativeValveSpec(null, 0, 1),
                "RelativeValveSpec: target = null must be a duration"),
            invalid("relative: target beyond nanoseconds", () -> new RelativeValveSpec(TOO_LONG.negated(), 0, 1),
                "RelativeValveSpec: target = " + TOO_LONG.negated() + " must fit in a long of nanoseconds"),
            invalid("relative: negative min", () -> new RelativeValveSpec(ONE_S, -1, 1),
                "RelativeValveSpec: min = -1 must be at least 0"),
            invalid("relative: max below min", () -> new RelativeValveSpec(ONE_S, 3, 2),
                "RelativeValveSpec: max = 2 must be at least min = 3"),
            invalid("codel: no target", () -> new CodelValveSpec(null, ONE_S, 0, 1),
                "CodelValveSpec: target = null must be a duration"),
            invalid("codel: no interval", () -> new CodelValveSpec(ONE_S, null, 0, 1),
                "CodelValveSpec: interval = null must be a duration"),
            invalid("codel: zero interval", () -> new CodelValveSpec(ONE_S, Duration.ZERO, 0, 1),
                "CodelValveSpec: interval = PT0S must be positive"),
            invalid("codel: negative min", () -> new CodelValveSpec(ONE_S, ONE_S, -5, 1),
                "CodelValveSpec: min = -5 must be at least 0"),
            invalid("codel: max below min", () -> new CodelValveSpec(ONE_S, ONE_S, 1, 0),
                "CodelValveSpec: max = 0 must be at least min = 1"));
    }

    @ParameterizedTest
    @MethodSource("invalidSpecs")
    void anInvalidSpecIsRefusedWithAMessageNamingTheField(final Executable create, final String message)
    {
        assertThatThrownBy(create::execute)
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith(message);
    }

    @Test
    void boundaryValuesAreAccepted()
    {
        assertThat(new OpenValveSpec(0).max()).isZero();
        assertThat(new RateValveSpec(RateValveSpec.MAX_LIMIT, Duration.ofNanos(1), 0).limit())
            .isEqualTo(RateValveSpec.MAX_LIMIT);
        assertThat(new RelativeValveSpec(Duration.ofMillis(-100), 0, 0).target()).isNegative();
        assertThat(new RelativeValveSpec(Duration.ZERO, 2, 2).min()).isEqualTo(2);
        assertThat(new CodelValveSpec(Duration.ZERO, Duration.ofNanos(1), 0, Integer.MAX_VALUE).max())
            .isEqualTo(Integer.MAX_VALUE);
    }
}
