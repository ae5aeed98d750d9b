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
 * @param rttLastNs         the latest round-trip time measured in the current session, in nanoseconds; 0 before
 *                          the first sample, or when no session is up.
 * @param rttSmoothedNs     the smoothed round-trip time of the current session (as TCP's SRTT: each sample
 *                          weighs 1/8, the first is taken as is), in nanoseconds; 0 as above.
 * @param rttMinNs          the shortest round-trip time of the current session, in nanoseconds; 0 as above.
 * @param subscribers       actors subscribed to this peer's {@code NodeConnected}/{@code NodeDisconnected}
 *                          (at most {@value Interconnect#MAX_SUBSCRIBERS_PER_PEER}; one that is gone is dropped at
 *                          the next notice).
 *
 * <p>Round trips come from heartbeats: each one echoes the send time of the latest heartbeat its sender
 * received from the peer and how long it held it, so a node measures on its own clock, from its heartbeat's
 * send time to when the echo was read, less the hold. That covers both media drivers and the network, plus up
 * to one duty cycle of each side's interconnect agent (a frame waits in the term buffer until the agent polls,
 * which may be idling with back-off, and a heartbeat is stamped at the start of the cycle that sends it). No
 * actor handles a heartbeat, so mailbox and handler time are not in it. A peer of wire version 1 sends no echo:
 * 0. A sample that is not positive or longer than the failure timeout is ignored.
 * @param refusal           the last refusal of a handshake with this peer since its last session came up, either way:
 *                          {@code "node 2 refuses: ..."} (its answer to ours, unauthenticated: a hint, not a fact) or
 *                          {@code "refused node 2: ..."} (ours to its); null if none
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
    long lostQueued,
    long rttLastNs,
    long rttSmoothedNs,
    long rttMinNs,
    int subscribers,
    String refusal)
{
}
