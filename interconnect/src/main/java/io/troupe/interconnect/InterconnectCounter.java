package io.troupe.interconnect;

import io.troupe.memquota.CounterDescriptor;

import static io.troupe.memquota.CounterDescriptor.count;
import static io.troupe.memquota.CounterDescriptor.gauge;

/**
 * The interconnect's node-wide counters (type ids 500..599), each read from the {@link Interconnect} (most from its
 * {@link InterconnectCounters}). {@link #FRAMES_REJECTED} has a counter per {@link FrameRejection} (label
 * {@code reason}), which the node makes when the reason first happens.
 */
public enum InterconnectCounter implements CounterDescriptor.Of<Interconnect>
{
    /** Frames dropped before trust, by reason. */
    FRAMES_REJECTED(count(500, "frames_rejected", "reason", "frames dropped before trust, by reason", null)),
    /** Frames that failed authentication. */
    UNAUTHENTICATED_FRAMES(count(501, "unauthenticated_frames", "",
        "frames that failed authentication", i -> i.counters().unauthenticatedFrames())),
    /** Peers that disagree about a type id. */
    TYPE_CONFLICTS(count(502, "type_conflicts", "",
        "peers that disagree about a type id", i -> i.counters().typeConflicts())),
    /** Events of a type with no codec here. */
    UNKNOWN_TYPE_EVENTS(count(503, "unknown_type_events", "",
        "events of a type with no codec here", i -> i.counters().unknownTypeEvents())),
    /** Node subscriptions refused. */
    SUBSCRIPTIONS_REFUSED(count(504, "subscriptions_refused", "",
        "node subscriptions refused", i -> i.counters().subscriptionsRefused())),
    /** Events charged to another node's account. */
    FOREIGN_ACCOUNT_ARRIVALS(count(505, "foreign_account_arrivals", "",
        "events charged to another node's account", i -> i.counters().foreignAccountArrivals())),
    /** Event costs from peers clamped to the maximum. */
    CLAMPED_COSTS(count(506, "clamped_costs", "",
        "event costs from peers clamped to the maximum", i -> i.counters().clampedCosts())),
    /** Chunk frames dropped. */
    CHUNK_FRAMES_DROPPED(count(507, "chunk_frames_dropped", "",
        "chunk frames dropped", i -> i.counters().chunkFramesDropped())),
    /** Directory updates dropped. */
    DIRECTORY_UPDATES_DROPPED(count(508, "directory_updates_dropped", "",
        "directory updates dropped", i -> i.counters().directoryUpdatesDropped())),
    /** Directory entries refused. */
    DIRECTORY_ENTRIES_REFUSED(count(509, "directory_entries_refused", "",
        "directory entries refused", i -> i.counters().directoryEntriesRefused())),
    /** Outbound streams found stalled. */
    STREAMS_STALLED(count(510, "streams_stalled", "",
        "outbound streams found stalled", i -> i.counters().streamsStalled())),
    /** Publications renewed. */
    PUBLICATIONS_RENEWED(count(511, "publications_renewed", "",
        "publications renewed", i -> i.counters().publicationsRenewed())),
    /** Largest event that fits in a frame. */
    LARGEST_EVENT_BYTES(gauge(512, "largest_event_bytes", "",
        "largest event that fits in a frame", Interconnect::largestEventBytes)),
    /** Handshake steps deferred until the peer's streams were heard. */
    HANDSHAKE_STEPS_DEFERRED(count(513, "handshake_steps_deferred", "",
        "handshake steps deferred until the peer's streams were heard", i -> i.counters().handshakeStepsDeferred())),
    /** Events queued for peers when they were removed at run time (tracked ones reported Undelivered). */
    LOST_TO_REMOVED_PEERS(count(514, "lost_to_removed_peers", "",
        "events queued for peers when they were removed (tracked ones reported Undelivered)",
        i -> i.counters().lostToRemovedPeers())),
    /** Directory updates from peers held until this node's directory was ready. */
    DIRECTORY_UPDATES_HELD(count(515, "directory_updates_held", "",
        "directory updates from peers held until this node's directory was ready",
        i -> i.counters().directoryUpdatesHeld()));

    private final Declaration<Interconnect> declaration;

    InterconnectCounter(final Declaration<Interconnect> declaration)
    {
        this.declaration = declaration;
    }

    @Override
    public Declaration<Interconnect> declaration()
    {
        return declaration;
    }
}
