package io.troupe.node;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static io.troupe.node.NodeConfigTest.MINIMAL;
import static io.troupe.node.NodeConfigTest.SECRET;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every way a config can be wrong stops start-up with a message naming the key path, the bad value and what
 * is allowed.
 */
class NodeConfigErrorTest
{
    private static final String NO_SECRET = "troupe { node-id = 1, bind.port = 40101 }";

    @Test
    void nodeIdIsRequired()
    {
        assertError("troupe { cluster-secret = \"" + SECRET + "\", bind.port = 40101 }", "troupe.node-id",
            "troupe.node-id is missing", "1..1048575");
        assertError("", "troupe.node-id", "is missing");
    }

    @Test
    void bindPortIsRequired()
    {
        assertError("troupe { node-id = 1, cluster-secret = \"" + SECRET + "\" }", "troupe.bind.port",
            "troupe.bind.port is missing: required: the UDP port this node listens on, 1..65535");
    }

    @Test
    void aSecretIsRequired()
    {
        assertError(NO_SECRET, "troupe.cluster-secret", "is missing",
            "troupe.cluster-secret or troupe.cluster-secret-file", "at least 16 bytes");
    }

    @Test
    void onlyOneOfSecretAndSecretFileMayBeSet()
    {
        assertError(MINIMAL + "\ntroupe.cluster-secret-file = \"/etc/troupe/secret\"", "troupe.cluster-secret-file",
            "= \"/etc/troupe/secret\"", "only one of troupe.cluster-secret and troupe.cluster-secret-file");
    }

    @Test
    void clientSettingsAreCheckedAndTheClientSecretNeverShown()
    {
        final String message = assertError(MINIMAL + "\ntroupe.client.secret = \"short-client\"",
            "troupe.client.secret", "(hidden)", "the secret has 12 bytes", "at least 16 bytes");
        assertThat(message).doesNotContain("short-client");
        assertError(MINIMAL + "\ntroupe.client { secret = \"" + SECRET + "\", secret-file = \"/etc/x\" }",
            "troupe.client.secret-file", "only one of troupe.client.secret and troupe.client.secret-file");
        assertError(MINIMAL + "\ntroupe.client { secret = \"" + SECRET + "\", max-clients = 0 }",
            "troupe.client.max-clients", "1..65536");
        assertError(MINIMAL + "\ntroupe.client { secret = \"" + SECRET + "\", max-pending-asks = 0 }",
            "troupe.client.max-pending-asks", "1..1048576");
        assertError(MINIMAL + "\ntroupe.client { secret = \"" + SECRET + "\", ask-timeout = 0s }",
            "troupe.client.ask-timeout", "1ms..1h");
        assertError(MINIMAL + "\ntroupe.client { secret = \"" + SECRET + "\", control-stream = 11 }",
            "troupe.client.control-stream", "different from each other and from the node streams");
        assertError(MINIMAL + "\ntroupe.client { secret = \"" + SECRET + "\", images-per-address = 0 }",
            "troupe.client.images-per-address", "1..65,536");
    }

    @Test
    void schedulerSettingsAreChecked()
    {
        assertError(MINIMAL + "\ntroupe.scheduler.channels-per-peer = 0", "troupe.scheduler.channels-per-peer",
            "1..65536");
        assertError(MINIMAL + "\ntroupe.scheduler.max-in-flight = 0", "troupe.scheduler.max-in-flight", "at least 1");
        assertError(MINIMAL + "\ntroupe.scheduler.starvation-age = 0s", "troupe.scheduler.starvation-age", "positive");
        assertError(MINIMAL + "\ntroupe.scheduler.max-waiting-senders = -3", "troupe.scheduler.max-waiting-senders",
            "at least 1");
        assertError(MINIMAL + "\ntroupe.scheduler.chanels = 3", "troupe.scheduler.chanels", "not a known key");
    }

    @Test
    void everyProblemOfAFileIsReportedAtOnce()
    {
        final String message = assertError(MINIMAL + "\ntroupe.ops.max-counters = 10\ntroupe.bind.prot = 1\n" +
            "troupe.shutdown-timeout = forever\ntroupe.metrics.prometheus.port = -1", "troupe.bind.prot",
            "3 more problems:", "troupe.bind.prot = 1", "not a known key", "troupe.shutdown-timeout",
            "troupe.ops.max-counters = 10", "256..1048576", "troupe.metrics.prometheus.port = -1", "0..65535");
        assertThat(message.lines().filter(line -> line.startsWith("  - "))).hasSize(3);
    }

    @Test
    void metricsSettingsAreCheckedAndTheTokenNeverShown()
    {
        assertError(MINIMAL + "\ntroupe.metrics.prometheus.port = 70000", "troupe.metrics.prometheus.port",
            "0..65535");
        final String message = assertError(MINIMAL + "\ntroupe.metrics.prometheus.bearer-token = \"short-token\"",
            "troupe.metrics.prometheus.bearer-token", "(hidden)", "at least 16 printable ASCII characters");
        assertThat(message).doesNotContain("short-token");
        assertError(MINIMAL + "\ntroupe.metrics.prometheus { bearer-token = \"0123456789abcdefgh\", " +
            "bearer-token-file = \"/etc/x\" }", "troupe.metrics.prometheus.bearer-token-file", "only one of");
        assertError(MINIMAL + "\ntroupe.metrics.prometheus.host = \" \"", "troupe.metrics.prometheus.host",
            "an address");
    }

    @Test
    void opsSettingsOutOfRangeNameTheirKey()
    {
        assertError(MINIMAL + "\ntroupe.ops.counters-interval = 1ms", "troupe.ops.counters-interval", "10ms..10s");
        assertError(MINIMAL + "\ntroupe.ops.counters-interval = 1m", "troupe.ops.counters-interval", "10ms..10s");
        assertError(MINIMAL + "\ntroupe.ops.max-counters = 10", "troupe.ops.max-counters", "256..1048576");
        assertError(MINIMAL + "\ntroupe.ops.error-log-size = 1KiB", "troupe.ops.error-log-size", "64KiB..256MiB");
        assertError(MINIMAL + "\ntroupe.ops.counters-intervall = 1s", "troupe.ops.counters-intervall", "");
    }

    @Test
    void anUnreadableSecretFileIsNamed()
    {
        assertError(NO_SECRET + "\ntroupe.cluster-secret-file = \"/nonexistent/troupe-secret\"",
            "troupe.cluster-secret-file", "\"/nonexistent/troupe-secret\"", "a readable file", "NoSuchFileException");
    }

    @Test
    void aShortSecretIsRefusedWithoutShowingIt()
    {
        final String message = assertError(MINIMAL + "\ntroupe.cluster-secret = \"short-secret\"",
            "troupe.cluster-secret",
            "troupe.cluster-secret = (hidden) (line 2): the secret has 12 bytes, allowed at least 16 bytes");

        assertThat(message).doesNotContain("short-secret");
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', value = {
        "troupe.node-id                              | 0                  | 1..1048575",
        "troupe.node-id                              | 1048576            | 1..1048575",
        "troupe.cluster-id                           | \"\"               | 1..255 bytes of UTF-8",
        "troupe.bind.host                            | \" \"              | a host name or address",
        "troupe.bind.port                            | 0                  | 1..65535",
        "troupe.bind.port                            | 65536              | 1..65535",
        "troupe.shutdown-timeout                     | 11m                | 0ms..10m",
        "troupe.registry.capacity                    | 0                  | 1..16777216",
        "troupe.memory-quota.max                     | 1000KiB            | below the minimum",
        "troupe.memory-quota.low-water               | 99%                | 98% of max",
        "troupe.memory-quota.reclaim-timeout         | 0ms                | 1ms..10s",
        "troupe.memory-quota.hard-cap                | 99%                | out of range",
        "troupe.memory-quota.hard-cap                | 401%               | 400% of it",
        "troupe.failure-detector.heartbeat-interval  | 600ms              | at most a third of failureTimeout",
        "troupe.failure-detector.timeout             | 5ms                | 10ms..10m",
        "troupe.transport.idle                       | sleepy             | backoff or spin",
        "troupe.transport.frame-protection           | rot13              | authenticated or encrypted",
        "troupe.transport.data-stream                | 10                 | three different stream ids",
        "troupe.transport.bulk-stream                | 11                 | three different stream ids",
        "troupe.transport.control-term-length        | 100KiB             | a power of 2, 64KiB..1GiB",
        "troupe.transport.data-term-length           | 32KiB              | a power of 2, 64KiB..1GiB",
        "troupe.transport.bulk-term-length           | 2GiB               | a size below 2GiB",
        "troupe.transport.mtu                        | 1000               | a multiple of 32, 1024..65504",
        "troupe.transport.bulk-threshold             | 64KiB              | 256..32728",
        "troupe.transport.max-event-size             | 0                  | 1..1GiB",
        "troupe.transport.outbound-queue-capacity    | 0                  | 1..16777216",
        "troupe.transport.handshake-retry-min        | 0ms                | 1ms..10m",
        "troupe.transport.handshake-retry-max        | 50ms               | at least handshakeRetryMin (100ms)",
        "troupe.transport.ack-interval               | 2s                 | 100us..1s",
        "troupe.transport.credit-flush-interval      | 2s                 | 100us..1s",
        "troupe.flow.default-threshold               | 0                  | allowed 1..2^62",
        "troupe.flow.flush-bound                     | 1.5                | expected a whole number",
        "troupe.flow.flush-bound                     | 4611686018427387905 | allowed 1..2^62",
        "troupe.flow.shadow-idle-timeout             | 2h                 | 1ms..1h",
    })
    void anOutOfRangeValueNamesItsKey(final String key, final String value, final String allowed)
    {
        final String extra = key.startsWith("troupe.memory-quota.") && !key.endsWith(".max") ?
            "\ntroupe.memory-quota.max = 64MiB" : "";
        assertError(MINIMAL + extra + "\n" + key + " = " + value, key, key + " = ", value.replace("\"", ""), allowed);
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', value = {
        "troupe.node-id                           | \"three\"          | expected an integer",
        "troupe.node-id                           | 1.5                | expected an integer",
        "troupe.bind.port                         | \"abc\"            | expected an integer",
        "troupe.bind.port                         | 99999999999        | expected an integer in",
        "troupe.bind                              | 40100              | expected an object with the keys host, port",
        "troupe.memory-quota                      | off                | " +
            "expected an object with the keys hard-cap, low-water, max,",
        "troupe.cluster-id                        | [a, b]             | expected a string",
        "troupe.failure-detector.timeout          | 10 parsecs         | expected a duration such as",
        "troupe.transport.mtu                     | big                | expected a size such as",
        "troupe.transport.embedded-driver         | maybe              | expected true or false",
        "troupe.memory-quota.max                  | lots               | expected a size such as 256MiB, or off",
        "troupe.memory-quota.low-water            | most               | expected a percentage of max such as 75%",
        "troupe.memory-quota.hard-cap             | lots               | expected a percentage of max such as 125%",
        "troupe.peers                             | 5                  | expected a list of peers",
        "troupe.pools                             | { name = x }       | expected a list of pools",
    })
    void aValueOfTheWrongTypeNamesItsKey(final String key, final String value, final String expected)
    {
        assertError(MINIMAL + "\n" + key + " = " + value, key, key + " = ", expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "troup.node-id = 2                                  | troup                        | at the top level: troupe",
        "troupe.nodeid = 2                                  | troupe.nodeid                | " +
            "in troupe: application, bind, client, cluster-id,",
        "troupe.bind.prot = 40102                           | troupe.bind.prot             | " +
            "in troupe.bind: host, port",
        "troupe.transport.mtu-length = 1408                 | troupe.transport.mtu-length  | " +
            "in troupe.transport: ack-interval, aeron-dir,",
        "troupe.memory-quota.low = 50%                      | troupe.memory-quota.low      | " +
            "in troupe.memory-quota: hard-cap, low-water, max, reclaim-timeout",
        "troupe.failure-detector.interval = 1s              | troupe.failure-detector.interval | " +
            "in troupe.failure-detector: heartbeat-interval, timeout",
        "troupe.peers = [ { id = 2, host = h, prot = 1 } ]  | troupe.peers[0].prot         | " +
            "in troupe.peers[0]: host, id, port",
        "troupe.pools = [ { name = a }, { name = b, thread = 1 } ] | troupe.pools[1].thread | " +
            "in troupe.pools[1]: events-per-activation, name, spin-before-sleep, threads, time-per-activation",
        "troupe.bind.host.name = x                          | troupe.bind.host             | expected a string",
    })
    void anUnknownKeyIsRejectedWithTheKeysAllowedBesideIt(final String line, final String key, final String allowed)
    {
        assertError(MINIMAL + "\n" + line, key, key + " = ", allowed);
    }

    @Test
    void anUnknownKeyIsRejectedEvenWhenEverythingElseIsMissing()
    {
        assertError("troupe.bind.prot = 1", "troupe.bind.prot", "not a known key");
    }

    @Test
    void peerIdsAreUniqueAndNotThisNodes()
    {
        assertError(MINIMAL + "\ntroupe.peers = [ { id = 2, host = a, port = 1 }, { id = 3, host = b, port = 2 }," +
            " { id = 2, host = c, port = 3 } ]", "troupe.peers[2].id", "troupe.peers[2].id = 2",
            "one entry per node id; troupe.peers[0] has id 2 too");
        assertError(MINIMAL + "\ntroupe.peers = [ { id = 2, host = a, port = 1 }, { id = 1, host = b, port = 2 } ]",
            "troupe.peers[1].id", "troupe.peers[1].id = 1", "troupe.node-id = 1 is this node");
    }

    @Test
    void peerEntriesAreChecked()
    {
        assertError(MINIMAL + "\ntroupe.peers = [ { id = 0, host = a, port = 1 } ]", "troupe.peers[0].id",
            "troupe.peers[0].id = 0", "1..1048575");
        assertError(MINIMAL + "\ntroupe.peers = [ { id = 2, host = \"\", port = 1 } ]", "troupe.peers[0].host",
            "a host name or address");
        assertError(MINIMAL + "\ntroupe.peers = [ { id = 2, host = a, port = 70000 } ]", "troupe.peers[0].port",
            "troupe.peers[0].port = 70000", "1..65535");
        assertError(MINIMAL + "\ntroupe.peers = [ { id = 2, port = 40102 } ]", "troupe.peers[0].host",
            "troupe.peers[0].host is missing");
        assertError(MINIMAL + "\ntroupe.peers = [ { id = 2, host = a, port = 1 }, \"10.0.0.3:40100\" ]",
            "troupe.peers[1]", "troupe.peers[1] = \"10.0.0.3:40100\"", "expected a peer such as { id = 2");
    }

    @Test
    void thePoolListMayNotBeEmpty()
    {
        assertError(MINIMAL + "\ntroupe.pools = []", "troupe.pools", "troupe.pools = []", "at least one pool");
    }

    @Test
    void poolEntriesAreCheckedByPoolConfigsRules()
    {
        assertError(MINIMAL + "\ntroupe.pools = [ { name = a }, { name = a } ]", "troupe.pools[1].name",
            "a name no other pool has; troupe.pools[0] is named 'a' too");
        assertError(MINIMAL + "\ntroupe.pools = [ { threads = 2 } ]", "troupe.pools[0].name",
            "troupe.pools[0].name is missing");
        assertError(MINIMAL + "\ntroupe.pools = [ { name = \"no spaces\" } ]", "troupe.pools[0].name",
            "1..32 letters, digits");
        assertError(MINIMAL + "\ntroupe.pools = [ { name = a, threads = 0 } ]", "troupe.pools[0].threads",
            "troupe.pools[0].threads = 0", "out of range 1..256");
        assertError(MINIMAL + "\ntroupe.pools = [ { name = a, events-per-activation = 0 } ]",
            "troupe.pools[0].events-per-activation", "out of range 1..1000000");
        assertError(MINIMAL + "\ntroupe.pools = [ { name = a, time-per-activation = 10ns } ]",
            "troupe.pools[0].time-per-activation", "at least 1 microsecond");
        assertError(MINIMAL + "\ntroupe.pools = [ { name = a, spin-before-sleep = 2s } ]",
            "troupe.pools[0].spin-before-sleep", "out of range 0..1s");
        assertError(MINIMAL + "\ntroupe.pools = [ { name = a, threads = many } ]", "troupe.pools[0].threads",
            "expected an integer");
    }

    @Test
    void syntaxErrorsAndUnresolvedSubstitutionsNameTheSource()
    {
        assertError("troupe { node-id = 1", "", "node config <string>: cannot parse", "<string>: 1");
        assertError(MINIMAL + "\ntroupe.data-dir = ${HOME_OF_NOBODY_AT_ALL}", "", "cannot resolve",
            "HOME_OF_NOBODY_AT_ALL");
    }

    @Test
    void theMessageSaysWhereTheValueIsWritten()
    {
        final String message = assertError("troupe {\n  node-id = 1\n  cluster-secret = \"" + SECRET +
            "\"\n  bind {\n    port = 70000\n  }\n}", "troupe.bind.port");

        assertThat(message).isEqualTo("node config <string>: troupe.bind.port = 70000 (line 5): allowed 1..65535");
    }

    @Test
    void aBadValueThatIsADefaultSaysSo()
    {
        final String message = assertError(MINIMAL + "\ntroupe.failure-detector.timeout = 200ms",
            "troupe.failure-detector.heartbeat-interval");

        assertThat(message).isEqualTo("node config <string>: troupe.failure-detector.heartbeat-interval = \"100ms\" " +
            "(the default): allowed at most a third of failureTimeout (200ms)");
    }

    /**
     * Asserts that parsing fails naming the key, and returns the message.
     */
    static String assertError(final String hocon, final String keyPath, final String... fragments)
    {
        final NodeConfigException[] thrown = new NodeConfigException[1];
        assertThatThrownBy(() -> NodeConfigLoader.parse(hocon))
            .isInstanceOfSatisfying(NodeConfigException.class, ex -> thrown[0] = ex);
        final NodeConfigException ex = thrown[0];
        assertThat(ex.keyPath()).as(ex.getMessage()).isEqualTo(keyPath);
        assertThat(ex.source()).isEqualTo("<string>");
        assertThat(ex.getMessage()).startsWith("node config <string>: " + keyPath);
        for (final String fragment : fragments)
        {
            assertThat(ex.getMessage()).contains(fragment);
        }
        return ex.getMessage();
    }
}
