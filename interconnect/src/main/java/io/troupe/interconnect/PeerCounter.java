package io.troupe.interconnect;

import io.troupe.memquota.CounterDescriptor;

import java.util.function.ToLongFunction;

/**
 * The counters of one peer (type ids 600..699, label {@code peer}), each read from the peer's {@link PeerCounters}.
 * The interconnect counts in plain fields of the peer (per frame); only the reading is declared here.
 * {@link #PEER_SCHEDULED_IN_FLIGHT} is the peer scheduler's, which the node sets from its counts.
 */
public enum PeerCounter implements CounterDescriptor.Of<PeerCounters>
{
    /** 1 while a session with the peer is up. */
    PEER_CONNECTED(600, "peer_connected", Kind.GAUGE, "peer",
        "1 while a session with the peer is up", c -> c.connected() ? 1 : 0),
    /** The peer's incarnation (0: never seen). */
    PEER_INCARNATION(601, "peer_incarnation", Kind.GAUGE, "peer",
        "the peer's incarnation (0: never seen)", PeerCounters::incarnation),
    /** Events sent to the peer. */
    PEER_EVENTS_OUT(602, "peer_events_out", Kind.COUNT, "peer", "events sent to the peer", PeerCounters::eventsOut),
    /** Bytes sent to the peer. */
    PEER_BYTES_OUT(603, "peer_bytes_out", Kind.COUNT, "peer", "bytes sent to the peer", PeerCounters::bytesOut),
    /** Events received from the peer. */
    PEER_EVENTS_IN(604, "peer_events_in", Kind.COUNT, "peer", "events received from the peer", PeerCounters::eventsIn),
    /** Bytes received from the peer. */
    PEER_BYTES_IN(605, "peer_bytes_in", Kind.COUNT, "peer", "bytes received from the peer", PeerCounters::bytesIn),
    /** Offers the peer's publication refused. */
    PEER_BACK_PRESSURED(606, "peer_back_pressured", Kind.COUNT, "peer",
        "offers the peer's publication refused", PeerCounters::backPressured),
    /** Events waiting for the peer. */
    PEER_QUEUE_DEPTH(607, "peer_queue_depth", Kind.GAUGE, "peer",
        "events waiting for the peer", PeerCounters::queueDepth),
    /** Sessions established. */
    PEER_SESSIONS_UP(608, "peer_sessions_up", Kind.COUNT, "peer", "sessions established", PeerCounters::sessionsUp),
    /** Sessions ended. */
    PEER_SESSIONS_DOWN(609, "peer_sessions_down", Kind.COUNT, "peer", "sessions ended", PeerCounters::sessionsDown),
    /** Frames from the peer rejected. */
    PEER_REJECTED_FRAMES(610, "peer_rejected_frames", Kind.COUNT, "peer",
        "frames from the peer rejected", PeerCounters::rejectedFrames),
    /** Handshakes with the peer refused. */
    PEER_HANDSHAKES_REFUSED(611, "peer_handshakes_refused", Kind.COUNT, "peer",
        "handshakes with the peer refused", PeerCounters::handshakesRefused),
    /** Events shed while the peer was slow. */
    PEER_SHED(612, "peer_shed", Kind.COUNT, "peer", "events shed while the peer was slow", PeerCounters::shed),
    /** Sends refused while the peer was down. */
    PEER_REFUSED_DOWN(613, "peer_refused_down", Kind.COUNT, "peer",
        "sends refused while the peer was down", PeerCounters::refusedDown),
    /** Tracked events unconfirmed at session end. */
    PEER_LOST_UNSURE(614, "peer_lost_unsure", Kind.COUNT, "peer",
        "tracked events unconfirmed at session end", PeerCounters::lostUnsure),
    /** Events still queued at session end. */
    PEER_LOST_QUEUED(615, "peer_lost_queued", Kind.COUNT, "peer",
        "events still queued at session end", PeerCounters::lostQueued),
    /** Last heartbeat round trip. */
    PEER_RTT_LAST_NS(616, "peer_rtt_last_ns", Kind.GAUGE, "peer", "last heartbeat round trip", PeerCounters::rttLastNs),
    /** Smoothed heartbeat round trip. */
    PEER_RTT_SMOOTHED_NS(617, "peer_rtt_smoothed_ns", Kind.GAUGE, "peer",
        "smoothed heartbeat round trip", PeerCounters::rttSmoothedNs),
    /** Shortest heartbeat round trip. */
    PEER_RTT_MIN_NS(618, "peer_rtt_min_ns", Kind.GAUGE, "peer",
        "shortest heartbeat round trip", PeerCounters::rttMinNs),
    /** Actors subscribed to the peer's state. */
    PEER_SUBSCRIBERS(619, "peer_subscribers", Kind.GAUGE, "peer",
        "actors subscribed to the peer's state", PeerCounters::subscribers),
    /** Peer scheduler requests and notifications in flight to the peer. */
    PEER_SCHEDULED_IN_FLIGHT(620, "peer_scheduled_in_flight", Kind.GAUGE, "peer",
        "peer scheduler requests and notifications in flight to the peer", null);

    private final Declaration declaration;
    private final ToLongFunction<PeerCounters> reader;

    PeerCounter(final int typeId, final String metricName, final Kind kind, final String labels,
        final String doc, final ToLongFunction<PeerCounters> reader)
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
    public ToLongFunction<PeerCounters> reader()
    {
        return reader;
    }
}
