package io.troupe.node;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.PoolConfig;
import io.troupe.memquota.MemoryQuotaConfig;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reference file documents the defaults; the settings classes own them. These tests keep the two equal for the
 * settings not yet declared once ({@link DeclaredSettingsTest} covers the declared ones).
 */
class ReferenceConfigTest
{
    @Test
    void referenceDefaultsEqualTheActorSystemPoolAndQuotaDefaults()
    {
        final ActorSystemConfig fromFile = NodeConfigLoader.parse(NodeConfigTest.MINIMAL).actorSystemConfig()
            .conclude();
        final ActorSystemConfig defaults = new ActorSystemConfig().conclude();

        assertThat(fromFile.threadNamePrefix()).isEqualTo(defaults.threadNamePrefix());
        assertThat(fromFile.memoryQuota().enabled()).isEqualTo(defaults.memoryQuota().enabled());
        assertThat(fromFile.memoryQuota().maxBytes()).isEqualTo(defaults.memoryQuota().maxBytes());
        assertThat(fromFile.memoryQuota().reclaimTimeout()).isEqualTo(defaults.memoryQuota().reclaimTimeout());
        assertThat(fromFile.pools()).hasSameSizeAs(defaults.pools());
        final PoolConfig pool = fromFile.pools().get(0);
        final PoolConfig defaultPool = defaults.pools().get(0);
        assertThat(pool.name()).isEqualTo(defaultPool.name()).isEqualTo(ActorSystemConfig.DEFAULT_POOL);
        assertThat(pool.threads()).isEqualTo(defaultPool.threads());
        assertThat(pool.eventsPerActivation()).isEqualTo(defaultPool.eventsPerActivation());
        assertThat(pool.timePerActivation()).isEqualTo(defaultPool.timePerActivation());
        assertThat(pool.spinBeforeSleep()).isEqualTo(defaultPool.spinBeforeSleep());
    }

    @Test
    void referenceLowWaterIsTheQuotaDefaultFraction()
    {
        final Config reference = NodeConfigLoader.reference();
        final long max = 256L << 20;

        assertThat(reference.getString("troupe.memory-quota.low-water"))
            .isEqualTo(Math.round(MemoryQuotaConfig.DEFAULT_LOW_WATER_FRACTION * 100) + "%");
        assertThat(NodeConfigLoader.parse(NodeConfigTest.MINIMAL + "\ntroupe.memory-quota.max = 256MiB")
            .actorSystemConfig().memoryQuota().lowWaterBytes())
            .isEqualTo(MemoryQuotaConfig.of(max).lowWaterBytes());
    }

    @Test
    void requiredKeysAreNullInTheReference()
    {
        final Config reference = NodeConfigLoader.reference();

        for (final String key : List.of(NodeConfigMapper.NODE_ID, NodeConfigMapper.CLUSTER_SECRET,
            NodeConfigMapper.CLUSTER_SECRET_FILE, NodeConfigMapper.BIND_PORT))
        {
            assertThat(reference.hasPathOrNull(key)).as(key).isTrue();
            assertThat(reference.getIsNull(key)).as(key).isTrue();
        }
    }

    @Test
    void everyReferenceKeyHasAComment()
    {
        final List<String> undocumented = new ArrayList<>();
        collectUndocumented(NodeConfigLoader.reference().root(), "", undocumented);

        assertThat(undocumented).isEmpty();

        // The check itself finds a key without a comment.
        final List<String> found = new ArrayList<>();
        collectUndocumented(ConfigFactory.parseString("# documented\na {\n  b = 1\n}").root(), "", found);
        assertThat(found).containsExactly("a.b");
    }

    @Test
    void theDefaultPoolInTheReferenceOnlyUsesKeysAPoolMayHave()
    {
        final ConfigObject pool = (ConfigObject)NodeConfigLoader.reference().getList(NodeConfigMapper.POOLS).get(0);

        assertThat(NodeConfigMapper.POOL_KEYS).containsAll(pool.keySet());
    }

    private static void collectUndocumented(final ConfigObject object, final String path,
        final List<String> undocumented)
    {
        for (final Map.Entry<String, ConfigValue> entry : object.entrySet())
        {
            final String keyPath = path.isEmpty() ? entry.getKey() : path + '.' + entry.getKey();
            if (entry.getValue().origin().comments().isEmpty())
            {
                undocumented.add(keyPath);
            }
            if (entry.getValue().valueType() == ConfigValueType.OBJECT)
            {
                collectUndocumented((ConfigObject)entry.getValue(), keyPath, undocumented);
            }
        }
    }
}
