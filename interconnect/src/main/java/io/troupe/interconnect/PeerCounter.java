package io.troupe.interconnect;

import io.troupe.memquota.CounterDescriptor;

import static io.troupe.memquota.CounterDescriptor.count;
import static io.troupe.memquota.CounterDescriptor.gauge;

/**
 * The counters of one peer (type ids 600..699, label {@code peer}), each read from the peer's {@link PeerCounters}.
 * The interconnect counts in plain fields of the peer (per frame); only the reading is declared here.
 * {@link #PEER_SCHEDULED_IN_FLIGHT} is the peer scheduler's, which the node sets from its counts.
 */
public enum PeerCounter implements CounterDescriptor.Of<PeerCounters>
{
    /** 1 while a session with the peer is up. */
    PEER_CONNECTED(gauge(600, "peer_connected", "peer",
        "1 while a session with the peer is up", c -> c.connected() ? 1 : 0)),
    /** The peer's incarnation (0: never seen). */
    PEER_INCARNATION(gauge(601, "peer_incarnation", "peer",
        "the peer's incarnation (0: never seen)", PeerCounters::incarnation)),
    /** Events sent to the peer. */
    PEER_EVENTS_OUT(count(602, "peer_events_out", "peer", "events sent to the peer", PeerCounters::eventsOut)),
    /** Bytes sent to the peer. */
    PEER_BYTES_OUT(count(603, "peer_bytes_out", "peer", "bytes sent to the peer", PeerCounters::bytesOut)),
    /** Events received from the peer. */
    PEER_EVENTS_IN(count(604, "peer_events_in", "peer", "events received from the peer", PeerCounters::eventsIn)),
    /** Bytes received from the peer. */
    PEER_BYTES_IN(count(605, "peer_bytes_in", "peer", "bytes received from the peer", PeerCounters::bytesIn)),
    /** Offers the peer's publication refused. */
    PEER_BACK_PRESSURED(count(606, "peer_back_pressured", "peer",
        "offers the peer's publication refused", PeerCounters::backPressured)),
    /** Events waiting for the peer. */
    PEER_QUEUE_DEPTH(gauge(607, "peer_queue_depth", "peer",
        "events waiting for the peer", PeerCounters::queueDepth)),
    /** Sessions established. */
    PEER_SESSIONS_UP(count(608, "peer_sessions_up", "peer", "sessions established", PeerCounters::sessionsUp)),
    /** Sessions ended. */
    PEER_SESSIONS_DOWN(count(609, "peer_sessions_down", "peer", "sessions ended", PeerCounters::sessionsDown)),
    /** Frames from the peer rejected. */
    PEER_REJECTED_FRAMES(count(610, "peer_rejected_frames", "peer",
        "frames from the peer rejected", PeerCounters::rejectedFrames)),
    /** Handshakes with the peer refused. */
    PEER_HANDSHAKES_REFUSED(count(611, "peer_handshakes_refused", "peer",
        "handshakes with the peer refused", PeerCounters::handshakesRefused)),
    /** Events shed while the peer was slow. */
    PEER_SHED(count(612, "peer_shed", "peer", "events shed while the peer was slow", PeerCounters::shed)),
    /** Sends refused while the peer was down. */
    PEER_REFUSED_DOWN(count(613, "peer_refused_down", "peer",
        "sends refused while the peer was down", PeerCounters::refusedDown)),
    /** Tracked events unconfirmed at session end. */
    PEER_LOST_UNSURE(count(614, "peer_lost_unsure", "peer",
        "tracked events unconfirmed at session end", PeerCounters::lostUnsure)),
    /** Events still queued at session end. */
    PEER_LOST_QUEUED(count(615, "peer_lost_queued", "peer",
        "events still queued at session end", PeerCounters::lostQueued)),
    /** Last heartbeat round trip. */
    PEER_RTT_LAST_NS(gauge(616, "peer_rtt_last_ns", "peer", "last heartbeat round trip", PeerCounters::rttLastNs)),
    /** Smoothed heartbeat round trip. */
    PEER_RTT_SMOOTHED_NS(gauge(617, "peer_rtt_smoothed_ns", "peer",
        "smoothed heartbeat round trip", PeerCounters::rttSmoothedNs)),
    /** Shortest heartbeat round trip. */
    PEER_RTT_MIN_NS(gauge(618, "peer_rtt_min_ns", "peer",
        "shortest heartbeat round trip", PeerCounters::rttMinNs)),
    /** Actors subscribed to the peer's state. */
    PEER_SUBSCRIBERS(gauge(619, "peer_subscribers", "peer",
        "actors subscribed to the peer's state", PeerCounters::subscribers)),
    /** Peer scheduler requests and notifications in flight to the peer. */
    PEER_SCHEDULED_IN_FLIGHT(gauge(620, "peer_scheduled_in_flight", "peer",
        "peer scheduler requests and notifications in flight to the peer", null));

    private final Declaration<PeerCounters> declaration;

    PeerCounter(final Declaration<PeerCounters> declaration)
    {
        this.declaration = declaration;
    }

    @Override
    public Declaration<PeerCounters> declaration()
    {
        return declaration;
    }
}
