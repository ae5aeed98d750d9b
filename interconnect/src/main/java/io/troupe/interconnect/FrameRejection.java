package io.troupe.interconnect;

/**
 * Why the interconnect dropped something that arrived, counted per reason
 * ({@link InterconnectCounters#rejectedFrames}). None of these reach an actor or change a session; only
 * {@link #SEQUENCE_GAP}, found on a verified frame, ends one (its stream is no longer whole).
 */
public enum FrameRejection
{
    /** From an Aeron session no handshake has set up (or that has ended). */
    UNKNOWN_SESSION,
    /** Not sealed, where every frame must be: anything but a handshake step. */
    UNSEALED,
    /** Sealed under a key that is not the session's: left over from an earlier session, or made up. */
    STALE_KEY,
    /** Its tag does not verify: forged, or damaged on the way. */
    BAD_TAG,
    /** Its sequence number was seen already: a replay. */
    REPLAYED,
    /**
     * Verified, but past the next sequence number: a message in between never arrived (the streams are
     * reliable, so it was displaced, e.g. by a packet injected in its place). Ends the session, which reports what
     * it had in flight.
     */
    SEQUENCE_GAP,
    /** Fails the frame validator, or is a kind of frame its stream never carries. */
    MALFORMED,
    /** Of a peer this node does not know, or for an event type this node has no codec for, or for another node. */
    NOT_FOR_THIS_NODE,
    /** A handshake step of a node that is not among the peers. */
    UNKNOWN_NODE,
    /** A handshake step answering an attempt that is over (e.g. a WELCOME for a HELLO already answered). */
    STALE_HANDSHAKE,
    /** A HELLO, WELCOME or CONFIRM whose proof of the cluster secret fails. */
    BAD_PROOF,
    /** A HELLO beyond the rate allowed per claimed node. */
    HELLO_RATE_LIMITED,
    /**
     * An Aeron image refused before it was made (or, with an external driver, rejected when it appeared): a
     * stream that is not one of the node's, a term length longer than the node's own, or more images of a stream
     * from one source address than its configured peers need (see {@code ImageGuard}).
     */
    ROGUE_IMAGE,
    /** A REFUSE: it is not authenticated, so it is only logged and counted; it never ends or blocks a session. */
    REFUSE_RECEIVED
}
