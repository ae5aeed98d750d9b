package io.troupe.memquota;

/**
 * A tracker's counters at the time of reading.
 *
 * @param usedBytes              bytes claimed now (approximate while claims are in flight).
 * @param maxBytes               the quota.
 * @param lowWaterBytes          where reclamation stops.
 * @param reclamations           reclamation rounds started (use crossed max).
 * @param participantsCollapsed  participants that collapsed or were forgotten by reclamation.
 * @param bytesReclaimed         bytes freed by reclamation.
 * @param unresponsive           reclaim requests that did not complete within the timeout.
 * @param refusedClaims          claims refused because use was past the hard cap
 *                               ({@link MemoryQuotaException.QuotaExhausted}).
 * @param accounts               open accounts.
 * @param reclaimEpisodes        times use went over max and reclamation brought it back under low water.
 * @param lastReclaimLatencyNs   the latest episode's length: from the claim that took use over max to the end
 *                               of the reclamation round that left it under low water (0 before the first).
 * @param worstReclaimLatencyNs  the longest episode so far.
 * @param openReclaimNs          how long the episode in progress has lasted so far (use went over max and is
 *                               not yet back under low water), or 0 if none is.
 */
public record MemoryQuotaCounters(
    long usedBytes,
    long maxBytes,
    long lowWaterBytes,
    long reclamations,
    long participantsCollapsed,
    long bytesReclaimed,
    long unresponsive,
    long refusedClaims,
    int accounts,
    long reclaimEpisodes,
    long lastReclaimLatencyNs,
    long worstReclaimLatencyNs,
    long openReclaimNs)
{
}
