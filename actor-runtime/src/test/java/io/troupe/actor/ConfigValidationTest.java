package io.troupe.actor;

import io.troupe.testing.Await;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Invalid settings are refused at start with a message that names the setting, and start no threads.
 */
@Timeout(60)
class ConfigValidationTest
{
    private static Arguments invalid(
        final String description, final UnaryOperator<ActorSystemConfig> change, final String setting)
    {
        return Arguments.of(Named.of(description, change), setting);
    }

    private static ActorSystemConfig withPool(final ActorSystemConfig config, final PoolConfig pool)
    {
        return config.pool(pool);
    }

    static Stream<Arguments> invalidConfigs()
    {
        return Stream.of(
            invalid("node id 0", c -> c.nodeId(0), "nodeId"),
            invalid("node id -1", c -> c.nodeId(-1), "nodeId"),
            invalid("node id MAX_NODE_ID + 1", c -> c.nodeId(ActorId.MAX_NODE_ID + 1), "nodeId"),
            invalid("0 threads", c -> withPool(c, PoolConfig.named("p").threads(0)), "threads"),
            invalid("257 threads", c -> withPool(c, PoolConfig.named("p").threads(257)), "threads"),
            invalid("0 events per activation", c -> withPool(c, PoolConfig.named("p").eventsPerActivation(0)),
                "eventsPerActivation"),
            invalid("1000001 events per activation",
                c -> withPool(c, PoolConfig.named("p").eventsPerActivation(1_000_001)), "eventsPerActivation"),
            invalid("time per activation under 1 us",
                c -> withPool(c, PoolConfig.named("p").timePerActivation(Duration.ofNanos(999))), "timePerActivation"),
            invalid("no time per activation", c -> withPool(c, PoolConfig.named("p").timePerActivation(null)),
                "timePerActivation"),
            invalid("negative spin before sleep",
                c -> withPool(c, PoolConfig.named("p").spinBeforeSleep(Duration.ofNanos(-1))), "spinBeforeSleep"),
            invalid("spin before sleep over 1 s",
                c -> withPool(c, PoolConfig.named("p").spinBeforeSleep(Duration.ofMillis(1_001))), "spinBeforeSleep"),
            invalid("empty pool name", c -> withPool(c, PoolConfig.named("")), "pool name"),
            invalid("null pool name", c -> withPool(c, PoolConfig.named(null)), "pool name"),
            invalid("pool name with a space", c -> withPool(c, PoolConfig.named("two words")), "pool name"),
            invalid("pool name with a dot", c -> withPool(c, PoolConfig.named("a.b")), "pool name"),
            invalid("pool name of 33 characters", c -> withPool(c, PoolConfig.named("p".repeat(33))), "pool name"),
            invalid("non-ASCII pool name", c -> withPool(c, PoolConfig.named("p\u00f6\u00f6l")), "pool name"),
            invalid("duplicate pool names",
                c -> c.pool(PoolConfig.named("twice").threads(1)).pool(PoolConfig.named("twice").threads(1)), "pools"),
            invalid("negative shutdown timeout", c -> c.shutdownTimeout(Duration.ofMillis(-1)), "shutdownTimeout"),
            invalid("shutdown timeout over 10 min", c -> c.shutdownTimeout(Duration.ofMinutes(11)), "shutdownTimeout"),
            invalid("no shutdown timeout", c -> c.shutdownTimeout(null), "shutdownTimeout"),
            invalid("no thread name prefix", c -> c.threadNamePrefix(null), "threadNamePrefix"),
            invalid("no clock", c -> c.clock(null), "clock"),
            invalid("negative incarnation", c -> c.incarnation(-1), "incarnation"),
            invalid("incarnation past MAX_INCARNATION", c -> c.incarnation(ActorId.MAX_INCARNATION + 1),
                "incarnation"));
    }

    @ParameterizedTest
    @MethodSource("invalidConfigs")
    void anInvalidSettingIsRefusedWithAMessageNamingIt(final UnaryOperator<ActorSystemConfig> change,
        final String setting)
    {
        final String prefix = TestActors.uniquePrefix("bad");
        final ActorSystemConfig config = new ActorSystemConfig().nodeId(3).threadNamePrefix(prefix);
        change.apply(config);

        assertThatThrownBy(() -> ActorSystem.start(config))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining(setting);
        // a refused config starts nothing; when the prefix itself was the bad setting, no thread can match anyway
        assertThat(TestActors.liveThreads(prefix)).isEmpty();
    }

    @Test
    void tooManyPoolsAreRefused()
    {
        final ActorSystemConfig config = new ActorSystemConfig();
        for (int i = 0; i <= ActorId.MAX_POOL_ID + 1; i++)
        {
            config.pool(PoolConfig.named("p" + i).threads(1));
        }
        assertThatThrownBy(config::conclude).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pools");
    }

    @Test
    void boundaryValuesAreAccepted() throws Exception
    {
        final String prefix = TestActors.uniquePrefix("edge");
        final ActorSystemConfig config = new ActorSystemConfig()
            .nodeId(ActorId.MAX_NODE_ID)
            .threadNamePrefix(prefix)
            .shutdownTimeout(Duration.ZERO)
            .pool(PoolConfig.named("a".repeat(32))
                .threads(1)
                .eventsPerActivation(1)
                .timePerActivation(Duration.ofNanos(1_000))
                .spinBeforeSleep(Duration.ZERO))
            .pool(PoolConfig.named("Z-9_x")
                .threads(1)
                .eventsPerActivation(1_000_000)
                .spinBeforeSleep(Duration.ofSeconds(1)));
        try (ActorSystem system = ActorSystem.start(config))
        {
            assertThat(system.nodeId()).isEqualTo(ActorId.MAX_NODE_ID);
            final TestActors.Recorder recorder = new TestActors.Recorder();
            final ActorId actor = system.register(recorder);
            assertThat(actor.nodeId()).isEqualTo(ActorId.MAX_NODE_ID);
            for (int i = 0; i < 20; i++)
            {
                system.send(actor, i);
            }
            for (int i = 0; i < 20; i++)
            {
                assertThat(recorder.next().event()).isEqualTo(i);
            }
            final TestActors.Recorder other = new TestActors.Recorder();
            system.send(system.register(other, 1, MailboxType.SIMPLE), "second pool");
            assertThat(other.next().event()).isEqualTo("second pool");
        }
        Await.until(() -> TestActors.liveThreads(prefix).isEmpty(), "threads exit");
    }

    @Test
    void aConfigChangedAfterAnEarlierStartIsValidatedAgain()
    {
        final String prefix = TestActors.uniquePrefix("reuse");
        final ActorSystemConfig config = new ActorSystemConfig()
            .nodeId(3)
            .threadNamePrefix(prefix)
            .pool(PoolConfig.named("ok").threads(1));
        try (ActorSystem first = ActorSystem.start(config))
        {
            assertThat(first.isRunning()).isTrue();
        }
        config.pool(PoolConfig.named("empty").threads(0));

        assertThatThrownBy(() -> ActorSystem.start(config))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("threads");
        assertThatThrownBy(config::conclude).isInstanceOf(IllegalArgumentException.class);
        Await.until(() -> TestActors.liveThreads(prefix).isEmpty(), "no threads left");
    }

    @Test
    void concludeIsIdempotentAndFillsTheDefaultPool()
    {
        final ActorSystemConfig config = new ActorSystemConfig();
        assertThat(config.conclude()).isSameAs(config);
        assertThat(config.conclude()).isSameAs(config);
        assertThat(config.pools()).extracting(PoolConfig::name).containsExactly(ActorSystemConfig.DEFAULT_POOL);
        assertThat(config.deadLetterHandler()).isNotNull();
        assertThat(config.failureHandler()).isNotNull();
        assertThat(config.nodeId()).isEqualTo(1);
    }
}
