package io.troupe.interconnect.scheduler;

/** Why a {@link Receiver} gets no response. */
public enum RequestFailure
{
    /** The request's timeout passed before its response arrived (a response after it is counted and dropped). */
    TIMEOUT,
    /** The peer's session ended (or the interconnect reported the request {@code Undelivered(DISCONNECTED)}). */
    DISCONNECTED,
    /** The scheduler stopped. */
    SHUTDOWN,
    /** The request was cancelled ({@link PeerScheduler#cancel}); its channel stays closed until it is answered. */
    WITHDRAWN,
    /**
     * The peer has no such recipient, refused the request for another reason ({@code Undelivered}), or the recipient
     * went before it answered (the scheduler watches the recipients of its requests).
     */
    UNDELIVERED
}
