package io.troupe.memquota;

/**
 * One account as the tracker sees it.
 *
 * @param accountId    the account.
 * @param parentId     its parent, or 0.
 * @param usedBytes    bytes its participants hold (including their local caches).
 * @param participants live participants.
 * @param oldestAgeNs  age of its oldest data at the time of reading, or -1 when it holds none.
 */
public record AccountInfo(long accountId, long parentId, long usedBytes, int participants, long oldestAgeNs)
{
}
