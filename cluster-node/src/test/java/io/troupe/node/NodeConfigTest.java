package io.troupe.node;

import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.PoolConfig;
import io.troupe.interconnect.IdleMode;
import io.troupe.interconnect.InterconnectConfig;
import io.troupe.interconnect.PeerAddress;
import io.troupe.interconnect.scheduler.SchedulerConfig;
import io.troupe.memquota.MemoryQuotaConfig;
import io.troupe.node.client.ClientIngressConfig;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class NodeConfigTest
{
    static final String SECRET = "0123456789abcdef-secret";
    static final String MINIMAL = "troupe { node-id = 1, cluster-secret = \"" + SECRET + "\", bind.port = 40101 }";
    private static final long KIB = 1L << 10;
    private static final long MIB = 1L << 20;

    @Test
    void minimalConfigGetsEveryDefault()
    {
        final NodeConfig config = NodeConfigLoader.parse(MINIMAL);
        final SchedulerConfig scheduler = config.schedulerConfig();
        assertThat(scheduler.channelsPerPeer()).isEqualTo(4);
        assertThat(scheduler.maxInFlight()).isEqualTo(256);
        assertThat(scheduler.starvationAge()).isEqualTo(Duration.ofMillis(200));
        assertThat(scheduler.maxWaitingSenders()).isEqualTo(65_536);

        assertThat(config.nodeId()).isEqualTo(1);
        assertThat(config.dataDir()).isEqualTo(Path.of("./data/node-1"));
        assertThat(config.source()).isEqualTo("<string>");

        final InterconnectConfig interconnect = config.interconnectConfig();
        assertThat(interconnect.clusterId()).isEqualTo("troupe");
        assertThat(interconnect.clusterSecret()).isEqualTo(SECRET.getBytes(StandardCharsets.UTF_8));
        assertThat(interconnect.bindHost()).isEqualTo("127.0.0.1");
        assertThat(interconnect.bindPort()).isEqualTo(40101);
        assertThat(interconnect.peers()).isEmpty();
        assertThat(interconnect.aeronDir()).isNull();
        assertThat(interconnect.embeddedDriver()).isTrue();
        assertThat(interconnect.idleMode()).isEqualTo(IdleMode.BACKOFF);
        assertThat(interconnect.controlStreamId()).isEqualTo(10);
        assertThat(interconnect.dataStreamId()).isEqualTo(11);
        assertThat(interconnect.bulkStreamId()).isEqualTo(12);
        assertThat(interconnect.controlTermLength()).isEqualTo(64 * KIB);
        assertThat(interconnect.dataTermLength()).isEqualTo(256 * KIB);
        assertThat(interconnect.bulkTermLength()).isEqualTo(MIB);
        assertThat(interconnect.mtuLength()).isEqualTo(1408);
        assertThat(interconnect.bulkThresholdBytes()).isEqualTo(8 * KIB);
        assertThat(interconnect.maxEventBytes()).isEqualTo(16 * MIB);
        assertThat(interconnect.outboundQueueCapacity()).isEqualTo(65536);
        assertThat(interconnect.heartbeatInterval()).isEqualTo(Duration.ofMillis(100));
        assertThat(interconnect.failureTimeout()).isEqualTo(Duration.ofMillis(1500));
        assertThat(interconnect.handshakeRetryMin()).isEqualTo(Duration.ofMillis(100));
        assertThat(interconnect.handshakeRetryMax()).isEqualTo(Duration.ofMillis(500));
        assertThat(interconnect.ackInterval()).isEqualTo(Duration.ofMillis(1));
        assertThat(interconnect.creditFlushInterval()).isEqualTo(Duration.ofMillis(1));
        assertThat(config.flow()).isEqualTo(new NodeConfig.FlowSettings(true, 1024, 64, Duration.ofSeconds(10)));
        assertThat(config.clientIngressConfig()).as("no client secret: no client admitted").isNull();
        assertThat(interconnect.clientStreams().imagesPerAddress()).isZero();
        assertThat(interconnect.clientStreams().controlStreamId()).isEqualTo(20);
        assertThat(interconnect.clientStreams().dataStreamId()).isEqualTo(21);
        assertThat(interconnect.clientStreams().termLength()).isEqualTo(256 * KIB);

        final ActorSystemConfig actorSystem = config.actorSystemConfig();
        assertThat(actorSystem.nodeId()).isEqualTo(1);
        assertThat(actorSystem.shutdownTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(actorSystem.memoryQuota().enabled()).isFalse();
        assertThat(actorSystem.memoryQuota().reclaimTimeout()).isEqualTo(Duration.ofMillis(100));
        assertThat(actorSystem.pools()).hasSize(1);
        final PoolConfig pool = actorSystem.pools().get(0);
        assertThat(pool.name()).isEqualTo("default");
        assertThat(pool.threads()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(pool.eventsPerActivation()).isEqualTo(100);
        assertThat(pool.timePerActivation()).isEqualTo(Duration.ofMillis(10));
        assertThat(pool.spinBeforeSleep()).isEqualTo(Duration.ofNanos(20_000));
    }

    @Test
    void fullConfigMapsEveryKey()
    {
        final NodeConfig config = NodeConfigLoader.parse(String.join("\n",
            "troupe {",
            "  node-id = 7",
            "  cluster-id = \"prod-eu\"",
            "  cluster-secret = \"" + SECRET + "\"",
            "  data-dir = \"/var/lib/troupe/seven\"",
            "  shutdown-timeout = 30s",
            "  scheduler { channels-per-peer = 2, max-in-flight = 9, starvation-age = 1s, max-waiting-senders = 10 }",
            "  bind { host = \"10.0.0.7\", port = 41000 }",
            "  peers = [",
            "    { id = 2, host = \"10.0.0.2\", port = 41002 }",
            "    { id = 1048575, host = \"node-max.example\", port = 65535 }",
            "  ]",
            "  pools = [",
            "    { name = \"default\", threads = 3, events-per-activation = 50, time-per-activation = 2ms,",
            "      spin-before-sleep = 0us }",
            "    { name = \"batch_1\", threads = 1, events-per-activation = 1000000, time-per-activation = 1s,",
            "      spin-before-sleep = 1s }",
            "  ]",
            "  memory-quota { max = 512MiB, low-water = 50%, reclaim-timeout = 2s }",
            "  flow { enabled = false, default-threshold = 500, flush-bound = 16, shadow-idle-timeout = 2m }",
            "  failure-detector { heartbeat-interval = 250ms, timeout = 3s }",
            "  transport {",
            "    aeron-dir = \"/dev/shm/aeron-seven\"",
            "    embedded-driver = false",
            "    driver-on-agent-thread = false",
            "    idle = spin",
            "    control-stream = 100",
            "    data-stream = 101",
            "    bulk-stream = 102",
            "    control-term-length = 128KiB",
            "    data-term-length = 512KiB",
            "    bulk-term-length = 4MiB",
            "    mtu = 8192",
            "    bulk-threshold = 16KiB",
            "    max-event-size = 64MiB",
            "    outbound-queue-capacity = 1024",
            "    handshake-retry-min = 50ms",
            "    handshake-retry-max = 1m",
            "    ack-interval = 500us",
            "    credit-flush-interval = 2ms",
            "  }",
            "}"));

        assertThat(config.nodeId()).isEqualTo(7);
        assertThat(config.dataDir()).isEqualTo(Path.of("/var/lib/troupe/seven"));
        final SchedulerConfig scheduler = config.schedulerConfig();
        assertThat(scheduler.channelsPerPeer()).isEqualTo(2);
        assertThat(scheduler.maxInFlight()).isEqualTo(9);
        assertThat(scheduler.starvationAge()).isEqualTo(Duration.ofSeconds(1));
        assertThat(scheduler.maxWaitingSenders()).isEqualTo(10);

        final InterconnectConfig interconnect = config.interconnectConfig();
        assertThat(interconnect.clusterId()).isEqualTo("prod-eu");
        assertThat(interconnect.clusterSecret()).isEqualTo(SECRET.getBytes(StandardCharsets.UTF_8));
        assertThat(interconnect.bindHost()).isEqualTo("10.0.0.7");
        assertThat(interconnect.bindPort()).isEqualTo(41000);
        assertThat(interconnect.peers()).containsExactly(
            new PeerAddress(2, "10.0.0.2", 41002), new PeerAddress(1048575, "node-max.example", 65535));
        assertThat(interconnect.aeronDir()).isEqualTo("/dev/shm/aeron-seven");
        assertThat(interconnect.embeddedDriver()).isFalse();
        assertThat(interconnect.driverOnAgentThread()).isFalse();
        assertThat(interconnect.idleMode()).isEqualTo(IdleMode.SPIN);
        assertThat(interconnect.controlStreamId()).isEqualTo(100);
        assertThat(interconnect.dataStreamId()).isEqualTo(101);
        assertThat(interconnect.bulkStreamId()).isEqualTo(102);
        assertThat(interconnect.controlTermLength()).isEqualTo(128 * KIB);
        assertThat(interconnect.dataTermLength()).isEqualTo(512 * KIB);
        assertThat(interconnect.bulkTermLength()).isEqualTo(4 * MIB);
        assertThat(interconnect.mtuLength()).isEqualTo(8192);
        assertThat(interconnect.bulkThresholdBytes()).isEqualTo(16 * KIB);
        assertThat(interconnect.maxEventBytes()).isEqualTo(64 * MIB);
        assertThat(interconnect.outboundQueueCapacity()).isEqualTo(1024);
        assertThat(interconnect.heartbeatInterval()).isEqualTo(Duration.ofMillis(250));
        assertThat(interconnect.failureTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(interconnect.handshakeRetryMin()).isEqualTo(Duration.ofMillis(50));
        assertThat(interconnect.handshakeRetryMax()).isEqualTo(Duration.ofMinutes(1));
        assertThat(interconnect.ackInterval()).isEqualTo(Duration.ofNanos(500_000));
        assertThat(interconnect.creditFlushInterval()).isEqualTo(Duration.ofMillis(2));
        assertThat(config.flow()).isEqualTo(new NodeConfig.FlowSettings(false, 500, 16, Duration.ofMinutes(2)));

        final ActorSystemConfig actorSystem = config.actorSystemConfig();
        assertThat(actorSystem.nodeId()).isEqualTo(7);
        assertThat(actorSystem.shutdownTimeout()).isEqualTo(Duration.ofSeconds(30));
        final MemoryQuotaConfig quota = actorSystem.memoryQuota();
        assertThat(quota.enabled()).isTrue();
        assertThat(quota.maxBytes()).isEqualTo(512 * MIB);
        assertThat(quota.lowWaterBytes()).isEqualTo(256 * MIB);
        assertThat(quota.reclaimTimeout()).isEqualTo(Duration.ofSeconds(2));
        final List<PoolConfig> pools = actorSystem.pools();
        assertThat(pools).extracting(PoolConfig::name).containsExactly("default", "batch_1");
        assertThat(pools).extracting(PoolConfig::threads).containsExactly(3, 1);
        assertThat(pools).extracting(PoolConfig::eventsPerActivation).containsExactly(50, 1_000_000);
        assertThat(pools).extracting(PoolConfig::timePerActivation)
            .containsExactly(Duration.ofMillis(2), Duration.ofSeconds(1));
        assertThat(pools).extracting(PoolConfig::spinBeforeSleep).containsExactly(Duration.ZERO, Duration.ofSeconds(1));

        // What the node will do with them must succeed.
        interconnect.conclude(config.nodeId());
        actorSystem.conclude();
    }

    @Test
    void poolEntryWithOnlyANameGetsPoolConfigDefaults()
    {
        final NodeConfig config =
            NodeConfigLoader.parse(MINIMAL + "\ntroupe.pools = [ { name = io }, { name = cpu, threads = 2 } ]");

        final List<PoolConfig> pools = config.actorSystemConfig().pools();
        final PoolConfig defaults = PoolConfig.named("io");
        assertThat(pools.get(0).name()).isEqualTo("io");
        assertThat(pools.get(0).threads()).isEqualTo(defaults.threads());
        assertThat(pools.get(0).eventsPerActivation()).isEqualTo(PoolConfig.DEFAULT_EVENTS_PER_ACTIVATION);
        assertThat(pools.get(0).timePerActivation()).isEqualTo(PoolConfig.DEFAULT_TIME_PER_ACTIVATION);
        assertThat(pools.get(0).spinBeforeSleep()).isEqualTo(PoolConfig.DEFAULT_SPIN_BEFORE_SLEEP);
        assertThat(pools.get(1).name()).isEqualTo("cpu");
        assertThat(pools.get(1).threads()).isEqualTo(2);
    }

    @Test
    void memoryQuotaLowWaterIsAPercentageOrASize()
    {
        final MemoryQuotaConfig threeQuarters = NodeConfigLoader.parse(MINIMAL + "\ntroupe.memory-quota.max = 256MiB")
            .actorSystemConfig().memoryQuota();
        assertThat(threeQuarters.maxBytes()).isEqualTo(256 * MIB);
        assertThat(threeQuarters.lowWaterBytes()).isEqualTo(MemoryQuotaConfig.of(256 * MIB).lowWaterBytes());

        final MemoryQuotaConfig fraction = NodeConfigLoader.parse(MINIMAL +
            "\ntroupe.memory-quota { max = 100MiB, low-water = 12.5% }").actorSystemConfig().memoryQuota();
        assertThat(fraction.lowWaterBytes()).isEqualTo((long)(100 * MIB * 0.125));

        final MemoryQuotaConfig size = NodeConfigLoader.parse(MINIMAL +
            "\ntroupe.memory-quota { max = 1GiB, low-water = 700MiB }").actorSystemConfig().memoryQuota();
        assertThat(size.maxBytes()).isEqualTo(1024 * MIB);
        assertThat(size.lowWaterBytes()).isEqualTo(700 * MIB);

        final MemoryQuotaConfig off = NodeConfigLoader.parse(MINIMAL +
            "\ntroupe.memory-quota { max = off, low-water = 1MiB }").actorSystemConfig().memoryQuota();
        assertThat(off.enabled()).isFalse();
    }

    @Test
    void memoryQuotaHardCapIsAPercentageOrASizeAndDefaultsTo125PercentOfMax()
    {
        assertThat(NodeConfigLoader.parse(MINIMAL + "\ntroupe.memory-quota.max = 256MiB").actorSystemConfig()
            .memoryQuota().hardCapBytes()).isEqualTo(320 * MIB);
        assertThat(NodeConfigLoader.parse(MINIMAL + "\ntroupe.memory-quota { max = 100MiB, hard-cap = 100% }")
            .actorSystemConfig().memoryQuota().hardCapBytes()).as("refuse at max, as a strict quota")
            .isEqualTo(100 * MIB);
        assertThat(NodeConfigLoader.parse(MINIMAL + "\ntroupe.memory-quota { max = 100MiB, hard-cap = 150MiB }")
            .actorSystemConfig().memoryQuota().hardCapBytes()).isEqualTo(150 * MIB);
        assertThat(NodeConfigLoader.parse(MINIMAL + "\ntroupe.memory-quota { max = off, hard-cap = 200% }")
            .actorSystemConfig().memoryQuota().enabled()).isFalse();
    }

    @Test
    void valuesTakeHoconUnitsAndBareNumbers()
    {
        final InterconnectConfig interconnect = NodeConfigLoader.parse(MINIMAL + "\ntroupe.transport {" +
            " control-term-length = 131072, data-term-length = 1 MiB, bulk-term-length = 2m," +
            " bulk-threshold = 4096, ack-interval = 2, handshake-retry-max = 2 minutes, idle = SPIN }" +
            "\ntroupe.failure-detector.timeout = 1.5 s")
            .interconnectConfig();

        assertThat(interconnect.controlTermLength()).isEqualTo(128 * KIB);
        assertThat(interconnect.dataTermLength()).isEqualTo(MIB);
        assertThat(interconnect.bulkTermLength()).isEqualTo(2 * MIB);
        assertThat(interconnect.bulkThresholdBytes()).isEqualTo(4096);
        assertThat(interconnect.ackInterval()).isEqualTo(Duration.ofMillis(2));
        assertThat(interconnect.handshakeRetryMax()).isEqualTo(Duration.ofMinutes(2));
        assertThat(interconnect.failureTimeout()).isEqualTo(Duration.ofMillis(1500));
        assertThat(interconnect.idleMode()).isEqualTo(IdleMode.SPIN);
    }

    @Test
    void substitutionsResolveAfterTheDefaultsAreMerged()
    {
        final NodeConfig config = NodeConfigLoader.parse(String.join("\n",
            "troupe {",
            "  node-id = 4",
            "  cluster-secret = \"" + SECRET + "\"",
            "  bind.port = 40104",
            "  data-dir = \"/srv/troupe/node-\"${troupe.node-id}",
            "  failure-detector.timeout = ${troupe.transport.handshake-retry-max}",
            "}"));

        assertThat(config.dataDir()).isEqualTo(Path.of("/srv/troupe/node-4"));
        assertThat(config.interconnectConfig().failureTimeout()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void anEmptyAeronDirLeavesTheInterconnectDefault()
    {
        final NodeConfig config =
            NodeConfigLoader.parse(MINIMAL + "\ntroupe.node-id = 12\ntroupe.cluster-id = \"a b\"");

        assertThat(config.interconnectConfig().aeronDir()).isNull();
        assertThat(config.interconnectConfig().conclude(12).aeronDir()).endsWith("troupe-a_b-node-12");
        assertThat(config.dataDir()).isEqualTo(Path.of(".", "data", "node-12"));
    }

    @Test
    void clientSettingsMapOntoTheIngressAndTheImageGuard()
    {
        final NodeConfig config = NodeConfigLoader.parse(MINIMAL +
            "\ntroupe.client { secret = \"client-secret-0123456\", max-clients = 12, credit-threshold = 777," +
            " max-pending-asks = 9, ask-timeout = 2s, images-per-address = 5, control-stream = 30, data-stream = 31," +
            " term-length = 128k }");

        final ClientIngressConfig clients = config.clientIngressConfig();
        assertThat(clients.secret()).isEqualTo("client-secret-0123456".getBytes(StandardCharsets.UTF_8));
        assertThat(clients.maxClients()).isEqualTo(12);
        assertThat(clients.creditThreshold()).isEqualTo(777);
        assertThat(clients.maxPendingAsks()).isEqualTo(9);
        assertThat(clients.askTimeout()).isEqualTo(Duration.ofSeconds(2));
        final InterconnectConfig interconnect = config.interconnectConfig();
        assertThat(interconnect.clientStreams().imagesPerAddress()).isEqualTo(5);
        assertThat(interconnect.clientStreams().controlStreamId()).isEqualTo(30);
        assertThat(interconnect.clientStreams().dataStreamId()).isEqualTo(31);
        assertThat(interconnect.clientStreams().termLength()).isEqualTo(128 * KIB);
        assertThat(config.describe()).contains("clients   ").contains("at most 12 on streams 30/31")
            .doesNotContain("client-secret-0123456");
        assertThat(config.clientIngressConfig()).as("a copy each time").isNotSameAs(clients);
    }

    @Test
    void describeNamesTheSettingsButNeverTheSecret()
    {
        final NodeConfig config = NodeConfigLoader.parse(MINIMAL +
            "\ntroupe.peers = [ { id = 2, host = \"127.0.0.1\", port = 40102 }," +
            " { id = 3, host = \"127.0.0.1\", port = 40103 } ]" +
            "\ntroupe.memory-quota.max = 256MiB");

        final String text = config.describe();

        assertThat(text)
            .contains("node 1 of cluster \"troupe\"")
            .contains("127.0.0.1:40101")
            .contains("2 at 127.0.0.1:40102, 3 at 127.0.0.1:40103")
            .contains("256MiB, low water 192MiB")
            .contains("heartbeat every 100ms, peer down after 1500ms")
            .contains("terms 64KiB, 256KiB, 1MiB")
            .contains("handshake retry 100ms..500ms, ack every 1ms")
            .contains("spins 20us")
            .contains(SECRET.length() +
                " bytes from troupe.cluster-secret; frames authenticated (HMAC-SHA256) under per-session keys")
            .doesNotContain(SECRET)
            .doesNotContain("0123456789abcdef");
        assertThat(config.toString()).isEqualTo(text);
    }

    @Test
    void everyCallHandsOutNewSettingsObjects()
    {
        final NodeConfig config = NodeConfigLoader.parse(MINIMAL);

        final InterconnectConfig interconnect = config.interconnectConfig();
        interconnect.bindPort(1).peer(new PeerAddress(9, "h", 9)).clusterSecret(new byte[16]);
        final ActorSystemConfig actorSystem = config.actorSystemConfig();
        actorSystem.nodeId(99).pool(PoolConfig.named("extra"));
        actorSystem.pools().get(0).threads(77);

        assertThat(config.interconnectConfig()).isNotSameAs(interconnect);
        assertThat(config.interconnectConfig().bindPort()).isEqualTo(40101);
        assertThat(config.interconnectConfig().peers()).isEmpty();
        assertThat(config.interconnectConfig().clusterSecret()).isEqualTo(SECRET.getBytes(StandardCharsets.UTF_8));
        assertThat(config.actorSystemConfig().nodeId()).isEqualTo(1);
        assertThat(config.actorSystemConfig().pools()).hasSize(1);
        assertThat(config.actorSystemConfig().pools().get(0).threads())
            .isEqualTo(Runtime.getRuntime().availableProcessors());
    }

    @Test
    void formatsDurationsAndSizesInTheLargestExactUnit()
    {
        assertThat(NodeConfig.duration(Duration.ofSeconds(5))).isEqualTo("5s");
        assertThat(NodeConfig.duration(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(NodeConfig.duration(Duration.ofNanos(20_000))).isEqualTo("20us");
        assertThat(NodeConfig.duration(Duration.ofNanos(7))).isEqualTo("7ns");
        assertThat(NodeConfig.duration(Duration.ZERO)).isEqualTo("0ms");
        assertThat(NodeConfig.size(1L << 30)).isEqualTo("1GiB");
        assertThat(NodeConfig.size(256 * KIB)).isEqualTo("256KiB");
        assertThat(NodeConfig.size(1408)).isEqualTo("1408 bytes");
        assertThat(NodeConfig.size(0)).isEqualTo("0 bytes");
    }
}
