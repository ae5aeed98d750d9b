package io.troupe.node.counters;

import io.troupe.node.client.ClientCounter;

import java.util.Locale;

/**
 * The type of each counter in a node's counters file: a stable numeric id (the type id of the counter's record, as in
 * Aeron's {@code cnc.dat}), a metric name, a kind and what it means. A counter's labels ({@code pool}, {@code peer},
 * {@code reason}) are in its key. Ids never change meaning; new types take new ids. The table is in
 * {@code docs/counters.md} (a test keeps it complete).
 *
 * <p>Client ingress counters are not listed here: their type id is {@link #CLIENT_BASE} plus the
 * {@link ClientCounter}'s ordinal, and their name {@code client_} and the counter's name in lower case.
 */
public enum CounterType
{
    // 100: the node and its actor system
    /** Errors of the node's agents and handlers (each also in the error log) (count). */
    AGENT_ERRORS(100, "agent_errors", CounterKind.COUNT,
        "errors of the node's agents and handlers (each also in the error log)"),
    /** Actors registered (count). */
    ACTORS_REGISTERED(101, "actors_registered", CounterKind.COUNT, "actors registered"),
    /** Actors registered and not passed away (gauge). */
    ACTORS_ALIVE(102, "actors_alive", CounterKind.GAUGE, "actors registered and not passed away"),
    /** Mailboxes ever created (count). */
    MAILBOXES_CREATED(103, "mailboxes_created", CounterKind.COUNT, "mailboxes ever created"),
    /** Mailboxes waiting for reuse (gauge). */
    MAILBOXES_VACANT(104, "mailboxes_vacant", CounterKind.GAUGE, "mailboxes waiting for reuse"),
    /** Undelivered notices sent to senders (count). */
    UNDELIVERED(105, "undelivered", CounterKind.COUNT, "Undelivered notices sent to senders"),
    /** Untracked events that could not be delivered (count). */
    DROPPED(106, "dropped", CounterKind.COUNT, "untracked events that could not be delivered"),
    /** Events forwarded to their forward-on-nondelivery target (count). */
    FORWARDED(107, "forwarded", CounterKind.COUNT, "events forwarded to their forward-on-nondelivery target"),
    /** Tracked events with nobody to notify (count). */
    DEAD_LETTERS(108, "dead_letters", CounterKind.COUNT, "tracked events with nobody to notify"),
    /** Exceptions thrown by handlers (count). */
    HANDLER_FAILURES(109, "handler_failures", CounterKind.COUNT, "exceptions thrown by handlers"),
    /** Sends refused because the node was shutting down (count). */
    REJECTED_SENDS(110, "rejected_sends", CounterKind.COUNT, "sends refused because the node was shutting down"),
    /** Timers requested (count). */
    TIMERS_SCHEDULED(111, "timers_scheduled", CounterKind.COUNT, "timers requested"),
    /** Timers delivered (count). */
    TIMERS_FIRED(112, "timers_fired", CounterKind.COUNT, "timers delivered"),
    /** Timers whose cookie was detached (count). */
    TIMERS_STALE(113, "timers_stale", CounterKind.COUNT, "timers whose cookie was detached"),
    /** Timers dropped by shutdown (count). */
    TIMERS_DISCARDED(114, "timers_discarded", CounterKind.COUNT, "timers dropped by shutdown"),
    /** Memory-tracked mailboxes collapsed (count). */
    MAILBOXES_COLLAPSED(115, "mailboxes_collapsed", CounterKind.COUNT, "memory-tracked mailboxes collapsed"),
    /** Asks whose reply slot is open (gauge). */
    ASKS_PENDING(116, "asks_pending", CounterKind.GAUGE, "asks whose reply slot is open"),
    /** Asks that ended with a timeout (count). */
    ASKS_TIMED_OUT(117, "asks_timed_out", CounterKind.COUNT, "asks that ended with a timeout"),
    /** Replies to a freed reply slot, dropped (count). */
    LATE_REPLIES(118, "late_replies", CounterKind.COUNT, "replies to a freed reply slot, dropped"),
    /** Events a typed actor did not handle (count). */
    UNHANDLED_EVENTS(119, "unhandled_events", CounterKind.COUNT, "events a typed actor did not handle"),
    /** Dead letters of events from other nodes (count). */
    REMOTE_DEAD_LETTERS(120, "remote_dead_letters", CounterKind.COUNT,
        "dead letters of events from other nodes"),
    /** Undelivered notices sent back to other nodes (count). */
    REMOTE_NOTICES_SENT(121, "remote_notices_sent", CounterKind.COUNT,
        "Undelivered notices sent back to other nodes"),
    /** Undelivered notices for other nodes that could not be sent (count). */
    REMOTE_NOTICES_LOST(122, "remote_notices_lost", CounterKind.COUNT,
        "Undelivered notices for other nodes that could not be sent"),
    /** 1 once a clean stop let the pools drain completely (gauge). */
    SHUTDOWN_DRAINED(123, "shutdown_drained", CounterKind.GAUGE,
        "1 once a clean stop let the pools drain completely"),
    /** Control requests taken (count). */
    CONTROL_REQUESTS(124, "control_requests", CounterKind.COUNT, "control requests (drain, stop, ping) taken"),
    /** Control requests refused: wrong token, no line in time (count). */
    CONTROL_REFUSED(125, "control_refused", CounterKind.COUNT,
        "control requests refused: wrong token, or no request line in time"),
    /** Errors counted in agent_errors that the full error log had no room for (count). */
    AGENT_ERRORS_UNRECORDED(126, "agent_errors_unrecorded", CounterKind.COUNT,
        "errors counted in agent_errors that the full error log had no room for"),

    // 200: executor pools (label pool)
    /** Worker threads of the pool (gauge). */
    POOL_THREADS(200, "pool_threads", CounterKind.GAUGE, "worker threads of the pool"),
    /** Mailbox activations run (count). */
    POOL_ACTIVATIONS(201, "pool_activations", CounterKind.COUNT, "mailbox activations run"),
    /** Events handed to actors (count). */
    POOL_EVENTS_HANDLED(202, "pool_events_handled", CounterKind.COUNT, "events handed to actors"),
    /** Time the workers spent running activations (count). */
    POOL_BUSY_NS(203, "pool_busy_ns", CounterKind.COUNT, "time the workers spent running activations"),
    /** Time the workers spent spinning or parked (count). */
    POOL_IDLE_NS(204, "pool_idle_ns", CounterKind.COUNT, "time the workers spent spinning or parked"),
    /** Missed wake-ups (expected 0) (count). */
    POOL_LATE_WAKEUPS(205, "pool_late_wakeups", CounterKind.COUNT, "missed wake-ups (expected 0)"),
    /** Mailboxes idle workers took from others (count). */
    POOL_STEALS(206, "pool_steals", CounterKind.COUNT, "mailboxes idle workers took from others"),

    // 300: the memory quota
    /** Bytes claimed (gauge). */
    MEMQUOTA_USED_BYTES(300, "memquota_used_bytes", CounterKind.GAUGE, "bytes claimed"),
    /** The quota (0: disabled) (gauge). */
    MEMQUOTA_MAX_BYTES(301, "memquota_max_bytes", CounterKind.GAUGE, "the quota (0: disabled)"),
    /** Where reclaiming stops (gauge). */
    MEMQUOTA_LOW_WATER_BYTES(302, "memquota_low_water_bytes", CounterKind.GAUGE, "where reclaiming stops"),
    /** Accounts asked to reclaim (count). */
    MEMQUOTA_RECLAMATIONS(303, "memquota_reclamations", CounterKind.COUNT, "accounts asked to reclaim"),
    /** Participants collapsed (count). */
    MEMQUOTA_COLLAPSED(304, "memquota_participants_collapsed", CounterKind.COUNT, "participants collapsed"),
    /** Bytes reclaimed (count). */
    MEMQUOTA_BYTES_RECLAIMED(305, "memquota_bytes_reclaimed", CounterKind.COUNT, "bytes reclaimed"),
    /** Participants that did not reclaim when asked (count). */
    MEMQUOTA_UNRESPONSIVE(306, "memquota_unresponsive", CounterKind.COUNT,
        "participants that did not reclaim when asked"),
    /** Claims refused (count). */
    MEMQUOTA_REFUSED_CLAIMS(307, "memquota_refused_claims", CounterKind.COUNT, "claims refused"),
    /** Accounts (gauge). */
    MEMQUOTA_ACCOUNTS(308, "memquota_accounts", CounterKind.GAUGE, "accounts"),
    /** Times usage passed the max (count). */
    MEMQUOTA_RECLAIM_EPISODES(309, "memquota_reclaim_episodes", CounterKind.COUNT, "times usage passed the max"),
    /** Longest time from passing the max to being under low water (gauge). */
    MEMQUOTA_WORST_RECLAIM_NS(310, "memquota_worst_reclaim_latency_ns", CounterKind.GAUGE,
        "longest time from passing the max to being under low water"),

    // 400: credit accounts
    /** Credit accounts opened (count). */
    CREDIT_ACCOUNTS_OPENED(400, "credit_accounts_opened", CounterKind.COUNT, "credit accounts opened"),
    /** Credit accounts open (gauge). */
    CREDIT_ACCOUNTS_OPEN(401, "credit_accounts_open", CounterKind.GAUGE, "credit accounts open"),
    /** FundsCleared notices sent (count). */
    CREDIT_CLEARED_NOTICES(402, "credit_cleared_notices", CounterKind.COUNT, "FundsCleared notices sent"),
    /** Shadows of other nodes' accounts (gauge). */
    CREDIT_SHADOWS(403, "credit_shadows", CounterKind.GAUGE, "shadows of other nodes' accounts"),
    /** Shadows refused (table full) (count). */
    CREDIT_SHADOWS_REFUSED(404, "credit_shadows_refused", CounterKind.COUNT, "shadows refused (table full)"),
    /** Idle shadows forgotten (count). */
    CREDIT_SHADOWS_FORGOTTEN(405, "credit_shadows_forgotten", CounterKind.COUNT, "idle shadows forgotten"),
    /** Deltas for accounts this node does not know (count). */
    CREDIT_UNKNOWN_ACCOUNTS(406, "credit_unknown_accounts", CounterKind.COUNT,
        "deltas for accounts this node does not know"),
    /** Debt written off for departed nodes (count). */
    CREDIT_WRITTEN_OFF(407, "credit_written_off", CounterKind.COUNT, "debt written off for departed nodes"),
    /** Shadow debt dropped with its node (count). */
    CREDIT_SHADOW_DEBT_DROPPED(408, "credit_shadow_debt_dropped", CounterKind.COUNT,
        "shadow debt dropped with its node"),
    /** Debt of the node's own account (sends from outside handlers) (gauge). */
    CREDIT_NODE_ACCOUNT_DEBT(409, "credit_node_account_debt", CounterKind.GAUGE,
        "debt of the node's own account (sends from outside handlers)"),
    /** One credit account's debt (gauge; label {@code account}). */
    CREDIT_ACCOUNT_DEBT(410, "credit_account_debt", CounterKind.GAUGE, "an account's debt (label account)"),
    /** One credit account's threshold (gauge; label {@code account}). */
    CREDIT_ACCOUNT_THRESHOLD(411, "credit_account_threshold", CounterKind.GAUGE,
        "the debt at which an account is in debt (label account)"),
    /** Times one credit account's ingress waited for FundsCleared (label {@code account}). */
    CREDIT_ACCOUNT_WAITS(412, "credit_account_waits", CounterKind.COUNT,
        "times an account's ingress found it in debt and waited (label account)"),
    /** Open accounts beyond the ones published one by one (gauge). */
    CREDIT_ACCOUNTS_UNPUBLISHED(413, "credit_accounts_unpublished", CounterKind.GAUGE,
        "open accounts beyond the first 256, which are not published one by one"),

    // 500: the interconnect, node-wide
    /** Frames dropped before trust, by reason (count). */
    FRAMES_REJECTED(500, "frames_rejected", CounterKind.COUNT, "frames dropped before trust, by reason"),
    /** Frames that failed authentication (count). */
    UNAUTHENTICATED_FRAMES(501, "unauthenticated_frames", CounterKind.COUNT, "frames that failed authentication"),
    /** Peers that disagree about a type id (count). */
    TYPE_CONFLICTS(502, "type_conflicts", CounterKind.COUNT, "peers that disagree about a type id"),
    /** Events of a type with no codec here (count). */
    UNKNOWN_TYPE_EVENTS(503, "unknown_type_events", CounterKind.COUNT, "events of a type with no codec here"),
    /** Node subscriptions refused (count). */
    SUBSCRIPTIONS_REFUSED(504, "subscriptions_refused", CounterKind.COUNT, "node subscriptions refused"),
    /** Events charged to another node's account (count). */
    FOREIGN_ACCOUNT_ARRIVALS(505, "foreign_account_arrivals", CounterKind.COUNT,
        "events charged to another node's account"),
    /** Event costs from peers clamped to the maximum (count). */
    CLAMPED_COSTS(506, "clamped_costs", CounterKind.COUNT, "event costs from peers clamped to the maximum"),
    /** Chunk frames dropped (count). */
    CHUNK_FRAMES_DROPPED(507, "chunk_frames_dropped", CounterKind.COUNT, "chunk frames dropped"),
    /** Directory updates dropped (count). */
    DIRECTORY_UPDATES_DROPPED(508, "directory_updates_dropped", CounterKind.COUNT, "directory updates dropped"),
    /** Directory entries refused (count). */
    DIRECTORY_ENTRIES_REFUSED(509, "directory_entries_refused", CounterKind.COUNT, "directory entries refused"),
    /** Outbound streams found stalled (count). */
    STREAMS_STALLED(510, "streams_stalled", CounterKind.COUNT, "outbound streams found stalled"),
    /** Publications renewed (count). */
    PUBLICATIONS_RENEWED(511, "publications_renewed", CounterKind.COUNT, "publications renewed"),
    /** Largest event that fits in a frame (gauge). */
    LARGEST_EVENT_BYTES(512, "largest_event_bytes", CounterKind.GAUGE, "largest event that fits in a frame"),
    /** Handshake steps deferred until the peer's streams were heard (count). */
    HANDSHAKE_STEPS_DEFERRED(513, "handshake_steps_deferred", CounterKind.COUNT,
        "handshake steps deferred until the peer's streams were heard"),

    // 600: peers (label peer)
    /** 1 while a session with the peer is up (gauge). */
    PEER_CONNECTED(600, "peer_connected", CounterKind.GAUGE, "1 while a session with the peer is up"),
    /** The peer's incarnation (0: never seen) (gauge). */
    PEER_INCARNATION(601, "peer_incarnation", CounterKind.GAUGE, "the peer's incarnation (0: never seen)"),
    /** Events sent to the peer (count). */
    PEER_EVENTS_OUT(602, "peer_events_out", CounterKind.COUNT, "events sent to the peer"),
    /** Bytes sent to the peer (count). */
    PEER_BYTES_OUT(603, "peer_bytes_out", CounterKind.COUNT, "bytes sent to the peer"),
    /** Events received from the peer (count). */
    PEER_EVENTS_IN(604, "peer_events_in", CounterKind.COUNT, "events received from the peer"),
    /** Bytes received from the peer (count). */
    PEER_BYTES_IN(605, "peer_bytes_in", CounterKind.COUNT, "bytes received from the peer"),
    /** Offers the peer's publication refused (count). */
    PEER_BACK_PRESSURED(606, "peer_back_pressured", CounterKind.COUNT, "offers the peer's publication refused"),
    /** Events waiting for the peer (gauge). */
    PEER_QUEUE_DEPTH(607, "peer_queue_depth", CounterKind.GAUGE, "events waiting for the peer"),
    /** Sessions established (count). */
    PEER_SESSIONS_UP(608, "peer_sessions_up", CounterKind.COUNT, "sessions established"),
    /** Sessions ended (count). */
    PEER_SESSIONS_DOWN(609, "peer_sessions_down", CounterKind.COUNT, "sessions ended"),
    /** Frames from the peer rejected (count). */
    PEER_REJECTED_FRAMES(610, "peer_rejected_frames", CounterKind.COUNT, "frames from the peer rejected"),
    /** Handshakes with the peer refused (count). */
    PEER_HANDSHAKES_REFUSED(611, "peer_handshakes_refused", CounterKind.COUNT, "handshakes with the peer refused"),
    /** Events shed while the peer was slow (count). */
    PEER_SHED(612, "peer_shed", CounterKind.COUNT, "events shed while the peer was slow"),
    /** Sends refused while the peer was down (count). */
    PEER_REFUSED_DOWN(613, "peer_refused_down", CounterKind.COUNT, "sends refused while the peer was down"),
    /** Tracked events unconfirmed at session end (count). */
    PEER_LOST_UNSURE(614, "peer_lost_unsure", CounterKind.COUNT, "tracked events unconfirmed at session end"),
    /** Events still queued at session end (count). */
    PEER_LOST_QUEUED(615, "peer_lost_queued", CounterKind.COUNT, "events still queued at session end"),
    /** Last heartbeat round trip (gauge). */
    PEER_RTT_LAST_NS(616, "peer_rtt_last_ns", CounterKind.GAUGE, "last heartbeat round trip"),
    /** Smoothed heartbeat round trip (gauge). */
    PEER_RTT_SMOOTHED_NS(617, "peer_rtt_smoothed_ns", CounterKind.GAUGE, "smoothed heartbeat round trip"),
    /** Shortest heartbeat round trip (gauge). */
    PEER_RTT_MIN_NS(618, "peer_rtt_min_ns", CounterKind.GAUGE, "shortest heartbeat round trip"),
    /** Actors subscribed to the peer's state (gauge). */
    PEER_SUBSCRIBERS(619, "peer_subscribers", CounterKind.GAUGE, "actors subscribed to the peer's state"),
    /** The peer scheduler's requests and notifications in flight to the peer (gauge). */
    PEER_SCHEDULED_IN_FLIGHT(620, "peer_scheduled_in_flight", CounterKind.GAUGE,
        "peer scheduler requests and notifications in flight to the peer"),

    // 700: the service directory
    /** Instances in the directory, all nodes (gauge). */
    REGISTRY_ENTRIES(700, "registry_entries", CounterKind.GAUGE, "instances in the directory, all nodes"),
    /** Directory entries refused (count). */
    REGISTRY_REFUSED_ENTRIES(701, "registry_refused_entries", CounterKind.COUNT, "directory entries refused"),
    /** Directory updates older than known (count). */
    REGISTRY_STALE_UPDATES(702, "registry_stale_updates", CounterKind.COUNT, "directory updates older than known"),
    /** 1 if the replica file was unusable and set aside (gauge). */
    REGISTRY_REPLICA_SET_ASIDE(703, "registry_replica_set_aside", CounterKind.GAUGE,
        "1 if the replica file was unusable and set aside"),

    // 800: client sessions, node-wide levels (the counts are CLIENT_BASE + n)
    /** Client sessions open (gauge). */
    CLIENT_SESSIONS_OPEN(800, "client_sessions_open", CounterKind.GAUGE, "client sessions open"),
    /** Asks of clients waiting for a reply (gauge). */
    CLIENT_ASKS_PENDING(801, "client_asks_pending", CounterKind.GAUGE, "asks of clients waiting for a reply"),
    /** One client session's events taken in (labels {@code client}, {@code session}). */
    CLIENT_SESSION_EVENTS_IN(810, "client_session_events_in", CounterKind.COUNT,
        "events a client session sent in (labels client, session)"),
    /** One client session's asks taken in. */
    CLIENT_SESSION_ASKS_IN(811, "client_session_asks_in", CounterKind.COUNT,
        "asks a client session sent in (labels client, session)"),
    /** Messages sent to one client session. */
    CLIENT_SESSION_MESSAGES_OUT(812, "client_session_messages_out", CounterKind.COUNT,
        "messages sent to a client session (labels client, session)"),
    /** One client session's asks waiting for their reply (gauge). */
    CLIENT_SESSION_ASKS_PENDING(813, "client_session_asks_pending", CounterKind.GAUGE,
        "a client session's asks waiting for a reply (labels client, session)"),
    /** One client session's credit account's debt (gauge). */
    CLIENT_SESSION_DEBT(814, "client_session_debt", CounterKind.GAUGE,
        "the debt of a client session's credit account (labels client, session)"),

    // 900: the node's named brokers (Node.brokers()), label broker
    /** Requests waiting on a broker's ask side (gauge). */
    BROKER_ASK_QUEUE(900, "broker_ask_queue", CounterKind.GAUGE, "requests waiting on the ask side (label broker)"),
    /** Requests waiting on a broker's askR side (gauge). */
    BROKER_ASKR_QUEUE(901, "broker_askr_queue", CounterKind.GAUGE, "requests waiting on the askR side (label broker)"),
    /** How long the oldest request on the ask side has waited (gauge, ns). */
    BROKER_ASK_SOJOURN_NS(902, "broker_ask_sojourn_ns", CounterKind.GAUGE,
        "how long the oldest waiting ask has waited, ns (label broker)"),
    /** How long the oldest request on the askR side has waited (gauge, ns). */
    BROKER_ASKR_SOJOURN_NS(903, "broker_askr_sojourn_ns", CounterKind.GAUGE,
        "how long the oldest waiting askR has waited, ns (label broker)"),
    /** Asks that got Go. */
    BROKER_ASK_MATCHES(904, "broker_ask_matches", CounterKind.COUNT, "asks that got Go (label broker)"),
    /** AskRs that got Go. */
    BROKER_ASKR_MATCHES(905, "broker_askr_matches", CounterKind.COUNT, "askRs that got Go (label broker)"),
    /** Asks that got Drop. */
    BROKER_ASK_DROPS(906, "broker_ask_drops", CounterKind.COUNT,
        "asks that got Drop: policy, full queue, nobody waiting (label broker)"),
    /** AskRs that got Drop. */
    BROKER_ASKR_DROPS(907, "broker_askr_drops", CounterKind.COUNT, "askRs that got Drop (label broker)"),
    /** The sojourn of the last ask that left the queue (gauge, ns). */
    BROKER_ASK_LAST_SOJOURN_NS(908, "broker_ask_last_sojourn_ns", CounterKind.GAUGE,
        "sojourn of the last ask matched or dropped, ns (label broker)"),
    /** The sojourn of the last askR that left the queue (gauge, ns). */
    BROKER_ASKR_LAST_SOJOURN_NS(909, "broker_askr_last_sojourn_ns", CounterKind.GAUGE,
        "sojourn of the last askR matched or dropped, ns (label broker)"),
    /** Requests cancelled by their askers. */
    BROKER_CANCELS(910, "broker_cancels", CounterKind.COUNT, "requests cancelled by their askers (label broker)"),
    /** Queued requests forgotten because their node disconnected. */
    BROKER_PURGED(911, "broker_purged", CounterKind.COUNT,
        "queued requests of a disconnected node, forgotten (label broker)"),
    /** Alarms raised now (gauge). */
    BROKER_ALARMS_RAISED(912, "broker_alarms_raised", CounterKind.GAUGE, "the broker's alarms up now (label broker)"),
    /** Configurations applied since start; its counter's label carries the configuration now. */
    BROKER_RECONFIGURATIONS(913, "broker_reconfigurations", CounterKind.COUNT,
        "configurations applied since start; the label ends with the configuration now (label broker)"),

    // 950: the peer request scheduler (names: scheduler_ and SchedulerCounters.Counter in lower case)
    /** Senders waiting for an offer of open channels. */
    SCHEDULER_WAITING_SENDERS(950, "scheduler_waiting_senders", CounterKind.GAUGE,
        "senders waiting for an offer of open channels"),
    /** Requests and notifications in flight to all peers (closed channels). */
    SCHEDULER_IN_FLIGHT(951, "scheduler_in_flight", CounterKind.GAUGE,
        "requests and notifications in flight to all peers (closed channels)"),
    /** The most ever in flight at once (never above troupe.scheduler.max-in-flight). */
    SCHEDULER_IN_FLIGHT_PEAK(952, "scheduler_in_flight_peak", CounterKind.GAUGE,
        "the most ever in flight at once (never above troupe.scheduler.max-in-flight)"),
    /** Offers of open channels made to senders. */
    SCHEDULER_OFFERS(953, "scheduler_offers", CounterKind.COUNT,
        "offers of open channels made to senders"),
    /** Requests sent through offers. */
    SCHEDULER_REQUESTS(954, "scheduler_requests", CounterKind.COUNT,
        "requests sent through offers"),
    /** Notifications sent through offers. */
    SCHEDULER_NOTIFICATIONS(955, "scheduler_notifications", CounterKind.COUNT,
        "notifications sent through offers"),
    /** Responses delivered to receivers. */
    SCHEDULER_RESPONSES(956, "scheduler_responses", CounterKind.COUNT,
        "responses delivered to receivers"),
    /** Requests failed by their timeout. */
    SCHEDULER_TIMEOUTS(957, "scheduler_timeouts", CounterKind.COUNT,
        "requests failed by their timeout"),
    /** Requests failed because their peer disconnected. */
    SCHEDULER_DISCONNECT_FAILURES(958, "scheduler_disconnect_failures", CounterKind.COUNT,
        "requests failed because their peer disconnected"),
    /** Requests the peer reported undelivered for another reason. */
    SCHEDULER_UNDELIVERED_FAILURES(959, "scheduler_undelivered_failures", CounterKind.COUNT,
        "requests the peer reported undelivered for another reason"),
    /** Responses after their request ended (timed out, answered twice): dropped. */
    SCHEDULER_LATE_RESPONSES(960, "scheduler_late_responses", CounterKind.COUNT,
        "responses after their request ended (timed out, answered twice): dropped"),
    /** Responses from another node than the request's, or with no request id: dropped. */
    SCHEDULER_STRAY_RESPONSES(961, "scheduler_stray_responses", CounterKind.COUNT,
        "responses from another node than the request's, or with no request id: dropped"),
    /** Requests cancelled (failed WITHDRAWN). */
    SCHEDULER_CANCELLED(962, "scheduler_cancelled", CounterKind.COUNT,
        "requests cancelled (failed WITHDRAWN)"),
    /** Senders discarded: after the stop or beyond max-waiting-senders. */
    SCHEDULER_SENDERS_DISCARDED(963, "scheduler_senders_discarded", CounterKind.COUNT,
        "senders discarded: after the stop or beyond max-waiting-senders"),
    /** Sender or receiver callbacks that threw. */
    SCHEDULER_CALLBACK_ERRORS(964, "scheduler_callback_errors", CounterKind.COUNT,
        "sender or receiver callbacks that threw");

    /** Type id of the first client ingress counter; the n-th {@link ClientCounter} is this plus n. */
    public static final int CLIENT_BASE = 1000;

    private static final CounterType[] BY_ID = new CounterType[CLIENT_BASE];

    static
    {
        for (final CounterType type : values())
        {
            if (BY_ID[type.id] != null)
            {
                throw new ExceptionInInitializerError("two counter types with id " + type.id);
            }
            BY_ID[type.id] = type;
        }
    }

    private final int id;
    private final String metricName;
    private final CounterKind kind;
    private final String help;

    CounterType(final int id, final String metricName, final CounterKind kind, final String help)
    {
        this.id = id;
        this.metricName = metricName;
        this.kind = kind;
        this.help = help;
    }

    /**
     * The type id in the counters file.
     *
     * @return the id.
     */
    public int id()
    {
        return id;
    }

    /**
     * The metric name (lower case, underscores; Prometheus prefixes {@code troupe_}).
     *
     * @return the name.
     */
    public String metricName()
    {
        return metricName;
    }

    /**
     * Count or gauge.
     *
     * @return the kind.
     */
    public CounterKind kind()
    {
        return kind;
    }

    /**
     * What it counts.
     *
     * @return one line.
     */
    public String help()
    {
        return help;
    }

    /**
     * The type of an id.
     *
     * @param typeId the id.
     * @return the type, or null for a client ingress counter or an id this build does not know.
     */
    public static CounterType byId(final int typeId)
    {
        return typeId >= 0 && typeId < CLIENT_BASE ? BY_ID[typeId] : null;
    }

    /**
     * The type id of a client ingress counter.
     *
     * @param counter the counter.
     * @return its type id.
     */
    public static int clientTypeId(final ClientCounter counter)
    {
        return CLIENT_BASE + counter.ordinal();
    }

    /**
     * The metric name of a type id, for any type (client ingress counters included).
     *
     * @param typeId the id.
     * @return the name, or {@code type_<id>} for an id this build does not know (a newer node's).
     */
    public static String metricName(final int typeId)
    {
        final CounterType type = byId(typeId);
        if (type != null)
        {
            return type.metricName;
        }
        final int client = typeId - CLIENT_BASE;
        if (client >= 0 && client < ClientCounter.values().length)
        {
            return "client_" + ClientCounter.values()[client].name().toLowerCase(Locale.ROOT);
        }
        return "type_" + typeId;
    }

    /**
     * The kind of a type id; client ingress counters and unknown ids are counts.
     *
     * @param typeId the id.
     * @return the kind.
     */
    public static CounterKind kind(final int typeId)
    {
        final CounterType type = byId(typeId);
        return type == null ? CounterKind.COUNT : type.kind;
    }
}
