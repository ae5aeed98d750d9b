package io.troupe.actor;

import io.troupe.memquota.ConfigurationException;
import io.troupe.memquota.MemoryQuotaConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Every programmatic config names the setting, the value and what is allowed as fields, not only in text. */
class ConfigurationExceptionTest
{
    private static ConfigurationException thrown(final Executable configure)
    {
        return assertThrows(ConfigurationException.class, configure);
    }

    @Test
    void poolSettings()
    {
        final ConfigurationException threads = thrown(() -> new ActorSystemConfig().nodeId(1)
            .pool(PoolConfig.named("p").threads(0)).conclude());
        assertThat(threads.setting()).isEqualTo("threads");
        assertThat(threads.value()).isEqualTo("0");
        assertThat(threads.allowed()).isEqualTo("out of range 1..256");
        assertThat(threads).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("pool 'p': threads=0 out of range 1..256");

        assertThat(thrown(() -> new ActorSystemConfig().nodeId(1).pool(PoolConfig.named("p")
            .spinBeforeSleep(Duration.ofSeconds(2))).conclude()).setting()).isEqualTo("spinBeforeSleep");
        assertThat(thrown(() -> new ActorSystemConfig().nodeId(1).pool(PoolConfig.named("no spaces")).conclude())
            .setting()).isEqualTo("name");
    }

    @Test
    void systemFlowAndQuotaSettings()
    {
        final ConfigurationException nodeId = thrown(() -> new ActorSystemConfig().nodeId(0).conclude());
        assertThat(nodeId.setting()).isEqualTo("nodeId");
        assertThat(nodeId.allowed()).isEqualTo("out of range 1.." + ActorId.MAX_NODE_ID);
        assertThat(thrown(() -> new ActorSystemConfig().nodeId(1).pool(PoolConfig.named("a"))
            .pool(PoolConfig.named("a")).conclude()).setting()).isEqualTo("pools");
        assertThat(thrown(() -> new FlowControlConfig().flushBound(0)).setting()).isEqualTo("flushBound");
        assertThat(thrown(() -> FlowControlConfig.checkCost(-1)).value()).isEqualTo("-1");

        final ConfigurationException lowWater = thrown(() -> MemoryQuotaConfig.of(1 << 20, 1 << 20));
        assertThat(lowWater.setting()).isEqualTo("lowWater");
        assertThat(lowWater.value()).isEqualTo(String.valueOf(1 << 20));
        assertThat(thrown(() -> MemoryQuotaConfig.of(1024, 512)).setting()).isEqualTo("max");
    }
}
