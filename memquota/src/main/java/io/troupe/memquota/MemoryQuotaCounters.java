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
 * @param refusedClaims          claims refused because use was at max ({@link MemoryQuotaException.QuotaExhausted}).
 * @param accounts               open accounts.
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
    int accounts)
{
}
