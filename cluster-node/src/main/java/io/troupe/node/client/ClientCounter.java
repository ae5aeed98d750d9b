package io.troupe.node.client;

import io.troupe.memquota.CounterDescriptor;

import java.util.Locale;

import static io.troupe.memquota.CounterDescriptor.count;

/**
 * What a node's client ingress counts ({@link ClientIngress#count}). Every refusal and every drop has a counter of
 * its own, so nothing a client sends disappears without one moving. Each is declared here: type id (1000..1099), a
 * doc line; its name is {@code client_} and the constant's name in lower case, its kind a count.
 */
public enum ClientCounter implements CounterDescriptor.Of<ClientIngress>
{
    /** Sessions that completed their handshake. */
    SESSIONS_OPENED(1000, "sessions that completed their handshake"),
    /**
     * Sessions that ended, for any reason (their client said goodbye, went silent, broke the protocol, or the node
     * closed).
     */
    SESSIONS_ENDED(1001,
        "sessions that ended, for any reason (their client said goodbye, went silent, broke the protocol, or the node "
            + "closed)"),
    /** Sessions ended because nothing was heard from the client for the failure timeout. */
    SESSIONS_TIMED_OUT(1002, "sessions ended because nothing was heard from the client for the failure timeout"),
    /** Sessions ended by the client's goodbye. */
    GOODBYES_RECEIVED(1003, "sessions ended by the client's goodbye"),
    /** Handshakes refused: the client speaks no protocol version this node does. */
    REFUSED_VERSION(1004, "handshakes refused: the client speaks no protocol version this node does"),
    /** Handshakes refused: the client names another cluster. */
    REFUSED_CLUSTER(1005, "handshakes refused: the client names another cluster"),
    /** Handshakes refused: the client's proof of the client secret is wrong (HELLO or CONFIRM). */
    REFUSED_SECRET(1006, "handshakes refused: the client's proof of the client secret is wrong (HELLO or CONFIRM)"),
    /** Handshakes refused: the client's frame protection is weaker than the node's minimum. */
    REFUSED_PROTECTION(1007, "handshakes refused: the client's frame protection is weaker than the node's minimum"),
    /** Handshakes refused: the node has {@code maxClients} sessions already. */
    REFUSED_CAPACITY(1008, "handshakes refused: the node has `maxClients` sessions already"),
    /** HELLOs dropped unanswered: their reply endpoint is not an address literal and port, or the step is malformed. */
    REFUSED_ENDPOINT(1009,
        "HELLOs dropped unanswered: their reply endpoint is not an address literal and port, or the step is malformed"),
    /** HELLOs dropped unread: more than {@code handshakesPerSecond} arrived. */
    HELLOS_RATE_LIMITED(1010, "HELLOs dropped unread: more than `handshakesPerSecond` arrived"),
    /** Refusals told to the client (on a publication of their own). */
    REFUSALS_TOLD(1011, "refusals told to the client (on a publication of their own)"),
    /** Refusals that could not be told (no room for another refusal publication). */
    REFUSALS_UNSENT(1012, "refusals that could not be told (no room for another refusal publication)"),
    /** Handshakes that never completed within the handshake timeout. */
    HANDSHAKES_TIMED_OUT(1013, "handshakes that never completed within the handshake timeout"),
    /** Messages from a source that has no session (not sealed, or of no known session). */
    FRAMES_UNKNOWN_SESSION(1014, "messages from a source that has no session (not sealed, or of no known session)"),
    /** Messages whose tag failed (forged, damaged, or of another session's key). */
    FRAMES_BAD_TAG(1015, "messages whose tag failed (forged, damaged, or of another session's key)"),
    /** Messages seen before (replayed). */
    FRAMES_REPLAYED(1016, "messages seen before (replayed)"),
    /** Messages after a gap in the stream: the session ends, as the stream can no longer be trusted whole. */
    FRAMES_GAP(1017,
        "messages after a gap in the stream: the session ends, as the stream can no longer be trusted whole"),
    /** Frames inside a verified message that did not decode, or of a kind a client does not send. */
    FRAMES_MALFORMED(1018, "frames inside a verified message that did not decode, or of a kind a client does not send"),
    /**
     * Events refused with {@code Undelivered(REFUSED)}: a type a client may not send, or one the node has no codec for.
     */
    EVENTS_REFUSED(1019,
        "events refused with `Undelivered(REFUSED)`: a type a client may not send, or one the node has no codec "
            + "for"),
    /** Events addressed to nobody (no id), answered {@code Undelivered(ACTOR_UNKNOWN)}. */
    EVENTS_UNADDRESSED(1020, "events addressed to nobody (no id), answered `Undelivered(ACTOR_UNKNOWN)`"),
    /** Asks answered {@code Undelivered(SHED)}: the client had {@code maxPendingAsks} waiting already. */
    ASKS_SHED(1021, "asks answered `Undelivered(SHED)`: the client had `maxPendingAsks` waiting already"),
    /** Events from clients handed to the actor system (asks included). */
    EVENTS_IN(1022, "events from clients handed to the actor system (asks included)"),
    /** Asks among them. */
    ASKS_IN(1023, "asks among them"),
    /** Replies, notices and results sent to clients. */
    REPLIES_OUT(1024, "replies, notices and results sent to clients"),
    /** Undelivered notices the ingress itself sent to clients (refusals, unknown targets, shed asks). */
    NOTICES_OUT(1025, "Undelivered notices the ingress itself sent to clients (refusals, unknown targets, shed asks)"),
    /** Replies to asks whose slot was already freed (answered, expired, or the session ended): dropped. */
    LATE_REPLIES(1026,
        "replies to asks whose slot was already freed (answered, expired, or the session ended): dropped"),
    /** Ask slots freed because no reply came within the ask timeout. */
    ASK_SLOTS_EXPIRED(1027, "ask slots freed because no reply came within the ask timeout"),
    /** Ask slots freed because their session ended. */
    ASK_SLOTS_FREED_AT_END(1028, "ask slots freed because their session ended"),
    /** Replies dropped: the hand-off queue to the ingress was full, or the client stopped reading for too long. */
    REPLIES_DROPPED(1029,
        "replies dropped: the hand-off queue to the ingress was full, or the client stopped reading for too long"),
    /** Replies that arrived for a session that had ended: dropped. */
    REPLIES_AFTER_END(1030, "replies that arrived for a session that had ended: dropped"),
    /** Replies with no codec on this node (or too large for a client message): the ask is answered REFUSED. */
    REPLIES_UNENCODABLE(1031,
        "replies with no codec on this node (or too large for a client message): the ask is answered REFUSED"),
    /** Times a client's account was found in debt and its stream left unread until it cleared. */
    THROTTLED(1032, "times a client's account was found in debt and its stream left unread until it cleared"),
    /** Asks failed at once because the actor asked went before it answered (its watch said so). */
    ASKS_TARGET_GONE(1033, "asks failed at once because the actor asked went before it answered (its watch said so)");

    private final Declaration<ClientIngress> declaration;

    ClientCounter(final int typeId, final String doc)
    {
        this.declaration = count(typeId, "client_" + name().toLowerCase(Locale.ROOT), "", doc,
            ingress -> ingress.count(this));
    }

    @Override
    public Declaration<ClientIngress> declaration()
    {
        return declaration;
    }
}
