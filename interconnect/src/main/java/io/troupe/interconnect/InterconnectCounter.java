package io.troupe.interconnect;

import io.troupe.memquota.CounterDescriptor;

import java.util.function.ToLongFunction;

/**
 * The interconnect's node-wide counters (type ids 500..599), each read from the {@link Interconnect} (most from its
 * {@link InterconnectCounters}). {@link #FRAMES_REJECTED} has a counter per {@link FrameRejection} (label
 * {@code reason}), which the node makes when the reason first happens.
 */
public enum InterconnectCounter implements CounterDescriptor.Of<Interconnect>
{
    /** Frames dropped before trust, by reason. */
    FRAMES_REJECTED(500, "frames_rejected", Kind.COUNT, "reason", "frames dropped before trust, by reason", null),
    /** Frames that failed authentication. */
    UNAUTHENTICATED_FRAMES(501, "unauthenticated_frames", Kind.COUNT, "",
        "frames that failed authentication", i -> i.counters().unauthenticatedFrames()),
    /** Peers that disagree about a type id. */
    TYPE_CONFLICTS(502, "type_conflicts", Kind.COUNT, "",
        "peers that disagree about a type id", i -> i.counters().typeConflicts()),
    /** Events of a type with no codec here. */
    UNKNOWN_TYPE_EVENTS(503, "unknown_type_events", Kind.COUNT, "",
        "events of a type with no codec here", i -> i.counters().unknownTypeEvents()),
    /** Node subscriptions refused. */
    SUBSCRIPTIONS_REFUSED(504, "subscriptions_refused", Kind.COUNT, "",
        "node subscriptions refused", i -> i.counters().subscriptionsRefused()),
    /** Events charged to another node's account. */
    FOREIGN_ACCOUNT_ARRIVALS(505, "foreign_account_arrivals", Kind.COUNT, "",
        "events charged to another node's account", i -> i.counters().foreignAccountArrivals()),
    /** Event costs from peers clamped to the maximum. */
    CLAMPED_COSTS(506, "clamped_costs", Kind.COUNT, "",
        "event costs from peers clamped to the maximum", i -> i.counters().clampedCosts()),
    /** Chunk frames dropped. */
    CHUNK_FRAMES_DROPPED(507, "chunk_frames_dropped", Kind.COUNT, "",
        "chunk frames dropped", i -> i.counters().chunkFramesDropped()),
    /** Directory updates dropped. */
    DIRECTORY_UPDATES_DROPPED(508, "directory_updates_dropped", Kind.COUNT, "",
        "directory updates dropped", i -> i.counters().directoryUpdatesDropped()),
    /** Directory entries refused. */
    DIRECTORY_ENTRIES_REFUSED(509, "directory_entries_refused", Kind.COUNT, "",
        "directory entries refused", i -> i.counters().directoryEntriesRefused()),
    /** Outbound streams found stalled. */
    STREAMS_STALLED(510, "streams_stalled", Kind.COUNT, "",
        "outbound streams found stalled", i -> i.counters().streamsStalled()),
    /** Publications renewed. */
    PUBLICATIONS_RENEWED(511, "publications_renewed", Kind.COUNT, "",
        "publications renewed", i -> i.counters().publicationsRenewed()),
    /** Largest event that fits in a frame. */
    LARGEST_EVENT_BYTES(512, "largest_event_bytes", Kind.GAUGE, "",
        "largest event that fits in a frame", Interconnect::largestEventBytes),
    /** Handshake steps deferred until the peer's streams were heard. */
    HANDSHAKE_STEPS_DEFERRED(513, "handshake_steps_deferred", Kind.COUNT, "",
        "handshake steps deferred until the peer's streams were heard", i -> i.counters().handshakeStepsDeferred()),
    /** Events queued for peers when they were removed at run time (tracked ones reported Undelivered). */
    LOST_TO_REMOVED_PEERS(514, "lost_to_removed_peers", Kind.COUNT, "",
        "events queued for peers when they were removed (tracked ones reported Undelivered)",
        i -> i.counters().lostToRemovedPeers()),
    /** Directory updates from peers held until this node's directory was ready. */
    DIRECTORY_UPDATES_HELD(515, "directory_updates_held", Kind.COUNT, "",
        "directory updates from peers held until this node's directory was ready",
        i -> i.counters().directoryUpdatesHeld());

    private final Declaration declaration;
    private final ToLongFunction<Interconnect> reader;

    InterconnectCounter(final int typeId, final String metricName, final Kind kind, final String labels,
        final String doc, final ToLongFunction<Interconnect> reader)
    {
        this.declaration = new Declaration(typeId, metricName, kind, labels, doc);
        this.reader = reader;
    }

    @Override
    public Declaration declaration()
    {
        return declaration;
    }

    @Override
    public ToLongFunction<Interconnect> reader()
    {
        return reader;
    }
}
