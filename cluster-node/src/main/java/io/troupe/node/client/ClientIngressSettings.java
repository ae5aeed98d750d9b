package io.troupe.node.client;

import io.troupe.memquota.Setting;
import io.troupe.memquota.Setting.Kind;

import java.time.Duration;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The client ingress's settings a node's config file sets ({@code troupe.client}), each declared once (see
 * {@link Setting}): {@link ClientIngressConfig} takes its defaults from here and checks each value against its bounds
 * here; the node's config reader, the reference config file and the configuration docs are made from {@link #ALL}.
 *
 * <p>The client secret (inline or in a file) is read by the node itself, which never shows it; the client streams'
 * settings are the interconnect's. The settings a node's file does not set (handshake timeout, poll batch,
 * handshakes per second, minimum protection) are checked by the config class alone.
 */
public final class ClientIngressSettings
{
    private static final String OWNER = "client ingress";
    /** The largest credit threshold: 2^62, far from overflow when debts are added. */
    private static final long MAX_CREDIT = 1L << 62;

    /** {@code troupe.client.max-clients}. */
    public static final Setting<ClientIngressConfig, Integer> MAX_CLIENTS = integer("client.max-clients",
        "maxClients", 256, ClientIngressConfig::maxClients, ClientIngressConfig::maxClients)
        .range(1, 65_536)
        .doc("Clients connected at once. One more is refused (\"too many clients\").")
        .build();
    /** {@code troupe.client.credit-threshold}. */
    public static final Setting<ClientIngressConfig, Long> CREDIT_THRESHOLD =
        Setting.<ClientIngressConfig, Long>builder(OWNER, "client.credit-threshold", "creditThreshold", Kind.LONG,
            Long.class, 16_384L, ClientIngressConfig::creditThreshold, ClientIngressConfig::creditThreshold)
        .allowed("1..2^62", value -> value >= 1 && value <= MAX_CREDIT)
        .doc("What one client may have outstanding (the cost of its events not yet handled) before the node stops " +
            "reading it and its sends see back pressure.")
        .build();
    /** {@code troupe.client.max-pending-asks}. */
    public static final Setting<ClientIngressConfig, Integer> MAX_PENDING_ASKS = integer("client.max-pending-asks",
        "maxPendingAsks", 4_096, ClientIngressConfig::maxPendingAsks, ClientIngressConfig::maxPendingAsks)
        .range(1, 1 << 20)
        .doc("Asks one client may have waiting for a reply. One more is answered Undelivered(SHED).")
        .build();
    /** {@code troupe.client.ask-timeout}. */
    public static final Setting<ClientIngressConfig, Duration> ASK_TIMEOUT =
        Setting.<ClientIngressConfig, Duration>builder(OWNER, "client.ask-timeout", "askTimeout", Kind.DURATION,
            Duration.class, Duration.ofSeconds(30), ClientIngressConfig::askTimeout, ClientIngressConfig::askTimeout)
        .range(Duration.ofMillis(1), Duration.ofHours(1))
        .doc("How long the node keeps the slot of an ask whose reply does not come (a later reply is dropped and " +
            "counted as late; the client's own timeout is what its caller sees).")
        .build();

    /** Every setting declared here, in the order of the reference file. */
    public static final List<Setting<ClientIngressConfig, ?>> ALL =
        List.of(MAX_CLIENTS, CREDIT_THRESHOLD, MAX_PENDING_ASKS, ASK_TIMEOUT);

    private ClientIngressSettings()
    {
    }

    private static Setting.Builder<ClientIngressConfig, Integer> integer(final String key, final String name,
        final int defaultValue, final Function<ClientIngressConfig, Integer> getter,
        final BiConsumer<ClientIngressConfig, Integer> setter)
    {
        return Setting.builder(OWNER, key, name, Kind.INTEGER, Integer.class, defaultValue, getter, setter);
    }
}
