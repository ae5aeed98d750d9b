package io.troupe.membership;

import io.troupe.memquota.Setting;
import io.troupe.memquota.Setting.Kind;

import java.time.Duration;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The membership's settings a node's config file sets ({@code troupe.membership}), each declared once (see
 * {@link Setting}): {@link MembershipConfig} takes its defaults from here and its setters refuse a value out of
 * these bounds; the node's config reader, the reference config file and the configuration docs are made from
 * {@link #ALL}. Checks that relate two settings (a renewal and the margin inside the lease, the canvass a multiple
 * of the heartbeat timeout) are in {@link MembershipConfig#conclude()}.
 *
 * <p>{@code troupe.membership.voters} and {@code troupe.membership.seeds} are lists the node reads itself.
 */
public final class MembershipSettings
{
    private static final String OWNER = "membership";

    /** {@code troupe.membership.lease}. */
    public static final Setting<MembershipConfig, Duration> LEASE = duration("membership.lease", "lease",
        Duration.ofSeconds(10), MembershipConfig::lease, MembershipConfig::lease)
        .range(Duration.ofSeconds(1), Duration.ofMinutes(10))
        .doc("How long a member stays without renewing before the membership service downs it; a member that " +
            "cannot renew stops itself earlier (lease less safety-margin). It must outlast a leader's loss: " +
            "heartbeat-timeout, renew-interval and safety-margin, and at least 1 s for the election, fit in it.")
        .build();
    /** {@code troupe.membership.renew-interval}. */
    public static final Setting<MembershipConfig, Duration> RENEW_INTERVAL = duration("membership.renew-interval",
        "renewInterval", Duration.ofSeconds(1), MembershipConfig::renewInterval, MembershipConfig::renewInterval)
        .range(Duration.ofMillis(50), Duration.ofMinutes(1))
        .doc("How often a member renews its lease; with the safety margin less than the lease.")
        .build();
    /** {@code troupe.membership.safety-margin}. */
    public static final Setting<MembershipConfig, Duration> SAFETY_MARGIN = duration("membership.safety-margin",
        "safetyMargin", Duration.ofSeconds(1), MembershipConfig::safetyMargin, MembershipConfig::safetyMargin)
        .range(Duration.ofMillis(50), Duration.ofMinutes(1))
        .doc("How long before the service could down it a member that cannot renew stops: covers clock-rate " +
            "differences and pauses.")
        .build();
    /** {@code troupe.membership.lease-check}. */
    public static final Setting<MembershipConfig, Duration> LEASE_CHECK = duration("membership.lease-check",
        "leaseCheck", Duration.ofMillis(250), MembershipConfig::leaseCheck, MembershipConfig::leaseCheck)
        .range(Duration.ofMillis(10), Duration.ofMinutes(1))
        .doc("How often the membership service checks the leases (cluster time); at most the lease.")
        .build();
    /** {@code troupe.membership.join-timeout}. */
    public static final Setting<MembershipConfig, Duration> JOIN_TIMEOUT = duration("membership.join-timeout",
        "joinTimeout", Duration.ofSeconds(60), MembershipConfig::joinTimeout, MembershipConfig::joinTimeout)
        .range(Duration.ofSeconds(1), Duration.ofHours(1))
        .doc("How long a starting node tries to reach the voters and join before it gives up and exits.")
        .build();
    /** {@code troupe.membership.retry-interval}. */
    public static final Setting<MembershipConfig, Duration> RETRY_INTERVAL = duration("membership.retry-interval",
        "retryInterval", Duration.ofMillis(500), MembershipConfig::retryInterval, MembershipConfig::retryInterval)
        .range(Duration.ofMillis(10), Duration.ofMinutes(1))
        .doc("How long after a lost connection to the service, or an unanswered join, a node tries again.")
        .build();
    /** {@code troupe.membership.first-assigned-id}. */
    public static final Setting<MembershipConfig, Integer> FIRST_ASSIGNED_ID = Setting.<MembershipConfig, Integer>
        builder(OWNER, "membership.first-assigned-id", "firstAssignedId", Kind.INTEGER, Integer.class, 1_000,
            MembershipConfig::firstAssignedId, MembershipConfig::firstAssignedId)
        .range(1, (1 << 20) - 1)
        .doc("The first node id handed to nodes that join without one; ids below are for nodes that bring their " +
            "own (the voters). An id is never handed out twice.")
        .build();
    /** {@code troupe.membership.max-members}. */
    public static final Setting<MembershipConfig, Integer> MAX_MEMBERS = Setting.<MembershipConfig, Integer>
        builder(OWNER, "membership.max-members", "maxMembers", Kind.INTEGER, Integer.class, 1_024,
            MembershipConfig::maxMembers, MembershipConfig::maxMembers)
        .range(1, 65_536)
        .doc("Most live members; a join beyond it is refused (FULL).")
        .build();
    /** {@code troupe.membership.heartbeat-timeout}. */
    public static final Setting<MembershipConfig, Duration> HEARTBEAT_TIMEOUT = duration(
        "membership.heartbeat-timeout", "heartbeatTimeout", Duration.ofSeconds(2),
        MembershipConfig::heartbeatTimeout, MembershipConfig::heartbeatTimeout)
        .range(Duration.ofMillis(500), Duration.ofMinutes(1))
        .doc("How long the voters wait for their leader's heartbeat before they elect another (Aeron Cluster's " +
            "leader heartbeat timeout); with renew-interval, safety-margin and 1 s for the election, at most " +
            "the lease.")
        .build();
    /** {@code troupe.membership.startup-canvass}. */
    public static final Setting<MembershipConfig, Duration> STARTUP_CANVASS = duration(
        "membership.startup-canvass", "startupCanvass", Duration.ofSeconds(6), MembershipConfig::startupCanvass,
        MembershipConfig::startupCanvass)
        .range(Duration.ofMillis(500), Duration.ofMinutes(10))
        .doc("How long a starting voter waits to hear all others before it elects with a majority; a multiple of " +
            "the heartbeat timeout, at least twice it.")
        .build();
    /** {@code troupe.membership.session-timeout}. */
    public static final Setting<MembershipConfig, Duration> SESSION_TIMEOUT = duration(
        "membership.session-timeout", "sessionTimeout", Duration.ofSeconds(10), MembershipConfig::sessionTimeout,
        MembershipConfig::sessionTimeout)
        .range(Duration.ofSeconds(1), Duration.ofMinutes(10))
        .doc("How long a node's session with the service may stay silent before the service closes it (a member " +
            "is its lease, not its session).")
        .build();
    /** {@code troupe.membership.max-idle-park}. */
    public static final Setting<MembershipConfig, Duration> MAX_IDLE_PARK = duration("membership.max-idle-park",
        "maxIdlePark", Duration.ofMillis(10), MembershipConfig::maxIdlePark, MembershipConfig::maxIdlePark)
        .range(Duration.ofNanos(1_000), Duration.ofMillis(100))
        .doc("The longest the membership's idle threads park (voter parts, the membership client and driver); " +
            "they never spin or yield, and park from 1 ms up to this.")
        .build();

    /** Every setting declared here, in the order of the reference file. */
    public static final List<Setting<MembershipConfig, ?>> ALL = List.of(LEASE, RENEW_INTERVAL, SAFETY_MARGIN,
        LEASE_CHECK, JOIN_TIMEOUT, RETRY_INTERVAL, FIRST_ASSIGNED_ID, MAX_MEMBERS, HEARTBEAT_TIMEOUT, STARTUP_CANVASS,
        SESSION_TIMEOUT, MAX_IDLE_PARK);

    private MembershipSettings()
    {
    }

    private static Setting.Builder<MembershipConfig, Duration> duration(final String key, final String name,
        final Duration defaultValue, final Function<MembershipConfig, Duration> getter,
        final BiConsumer<MembershipConfig, Duration> setter)
    {
        return Setting.builder(OWNER, key, name, Kind.DURATION, Duration.class, defaultValue, getter, setter);
    }
}
