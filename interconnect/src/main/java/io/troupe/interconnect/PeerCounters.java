package io.troupe.interconnect;

/**
 * One peer's counters at the time of reading.
 *
 * @param nodeId            the peer.
 * @param connected         whether a session is up now.
 * @param incarnation       the peer's incarnation in the current (or last) session, 0 before the first.
 * @param eventsOut         envelopes sent.
 * @param bytesOut          bytes of envelope frames sent.
 * @param eventsIn          envelopes received.
 * @param bytesIn           bytes of envelope frames received.
 * @param backPressured     offers Aeron pushed back on (retried later).
 * @param queueDepth        envelopes waiting in the outbound queue now.
 * @param sessionsUp        sessions established.
 * @param sessionsDown      sessions ended (failure, goodbye or restart of the peer).
 * @param rejectedFrames    frames from this peer rejected (invalid, or before the handshake).
 * @param handshakesRefused handshakes refused (wrong cluster, secret or version), either way.
 * @param shed              sends refused because the outbound queue or the memory quota was full.
 * @param refusedDown       sends refused because the peer was down.
 * @param lostUnsure        tracked envelopes reported undelivered, unsure, because a session died unacked.
 * @param lostQueued        envelopes still queued when a session died (tracked ones reported undelivered).
 */
public record PeerCounters(
    int nodeId,
    boolean connected,
    long incarnation,
    long eventsOut,
    long bytesOut,
    long eventsIn,
    long bytesIn,
    long backPressured,
    int queueDepth,
    long sessionsUp,
    long sessionsDown,
    long rejectedFrames,
    long handshakesRefused,
    long shed,
    long refusedDown,
    long lostUnsure,
    long lostQueued)
{
}
