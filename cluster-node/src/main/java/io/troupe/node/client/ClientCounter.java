package io.troupe.node.client;

/**
 * What a node's client ingress counts ({@link ClientIngress#count}). Every refusal and every drop has a counter of
 * its own, so nothing a client sends disappears without one moving.
 */
public enum ClientCounter
{
    /** Sessions that completed their handshake. */
    SESSIONS_OPENED,
    /**
     * Sessions that ended, for any reason (their client said goodbye, went silent, broke the protocol, or the node
     * closed).
     */
    SESSIONS_ENDED,
    /** Sessions ended because nothing was heard from the client for the failure timeout. */
    SESSIONS_TIMED_OUT,
    /** Sessions ended by the client's goodbye. */
    GOODBYES_RECEIVED,
    /** Handshakes refused: the client speaks no protocol version this node does. */
    REFUSED_VERSION,
    /** Handshakes refused: the client names another cluster. */
    REFUSED_CLUSTER,
    /** Handshakes refused: the client's proof of the client secret is wrong (HELLO or CONFIRM). */
    REFUSED_SECRET,
    /** Handshakes refused: the client's frame protection is weaker than the node's minimum. */
    REFUSED_PROTECTION,
    /** Handshakes refused: the node has {@code maxClients} sessions already. */
    REFUSED_CAPACITY,
    /** HELLOs dropped unanswered: their reply endpoint is not an address literal and port, or the step is malformed. */
    REFUSED_ENDPOINT,
    /** HELLOs dropped unread: more than {@code handshakesPerSecond} arrived. */
    HELLOS_RATE_LIMITED,
    /** Refusals told to the client (on a publication of their own). */
    REFUSALS_TOLD,
    /** Refusals that could not be told (no room for another refusal publication). */
    REFUSALS_UNSENT,
    /** Handshakes that never completed within the handshake timeout. */
    HANDSHAKES_TIMED_OUT,
    /** Messages from a source that has no session (not sealed, or of no known session). */
    FRAMES_UNKNOWN_SESSION,
    /** Messages whose tag failed (forged, damaged, or of another session's key). */
    FRAMES_BAD_TAG,
    /** Messages seen before (replayed). */
    FRAMES_REPLAYED,
    /** Messages after a gap in the stream: the session ends, as the stream can no longer be trusted whole. */
    FRAMES_GAP,
    /** Frames inside a verified message that did not decode, or of a kind a client does not send. */
    FRAMES_MALFORMED,
    /**
     * Events refused with {@code Undelivered(REFUSED)}: a type a client may not send, or one the node has no codec for.
     */
    EVENTS_REFUSED,
    /** Events addressed to nobody (no id), answered {@code Undelivered(ACTOR_UNKNOWN)}. */
    EVENTS_UNADDRESSED,
    /** Asks answered {@code Undelivered(SHED)}: the client had {@code maxPendingAsks} waiting already. */
    ASKS_SHED,
    /** Events from clients handed to the actor system (asks included). */
    EVENTS_IN,
    /** Asks among them. */
    ASKS_IN,
    /** Replies, notices and results sent to clients. */
    REPLIES_OUT,
    /** Undelivered notices the ingress itself sent to clients (refusals, unknown targets, shed asks). */
    NOTICES_OUT,
    /** Replies to asks whose slot was already freed (answered, expired, or the session ended): dropped. */
    LATE_REPLIES,
    /** Ask slots freed because no reply came within the ask timeout. */
    ASK_SLOTS_EXPIRED,
    /** Ask slots freed because their session ended. */
    ASK_SLOTS_FREED_AT_END,
    /** Replies dropped: the hand-off queue to the ingress was full, or the client stopped reading for too long. */
    REPLIES_DROPPED,
    /** Replies that arrived for a session that had ended: dropped. */
    REPLIES_AFTER_END,
    /** Replies with no codec on this node (or too large for a client message): the ask is answered REFUSED. */
    REPLIES_UNENCODABLE,
    /** Times a client's account was found in debt and its stream left unread until it cleared. */
    THROTTLED
}
