package io.troupe.memquota;

import static io.troupe.memquota.CounterDescriptor.count;
import static io.troupe.memquota.CounterDescriptor.gauge;

/** The memory quota's counters (type ids 300..399), each read from the tracker's {@link MemoryQuotaCounters}. */
public enum MemoryQuotaCounter implements CounterDescriptor.Of<MemoryQuotaCounters>
{
    /** Bytes claimed. */
    MEMQUOTA_USED_BYTES(gauge(300, "memquota_used_bytes", "", "bytes claimed", MemoryQuotaCounters::usedBytes)),
    /** The quota (0: disabled; a node without a quota runs its tracker with no limit, {@code Long.MAX_VALUE}). */
    MEMQUOTA_MAX_BYTES(gauge(301, "memquota_max_bytes", "",
        "the quota (0: disabled)", c -> c.maxBytes() == Long.MAX_VALUE ? 0 : c.maxBytes())),
    /** Where reclaiming stops. */
    MEMQUOTA_LOW_WATER_BYTES(gauge(302, "memquota_low_water_bytes", "",
        "where reclaiming stops", c -> c.maxBytes() == Long.MAX_VALUE ? 0 : c.lowWaterBytes())),
    /** Accounts asked to reclaim. */
    MEMQUOTA_RECLAMATIONS(count(303, "memquota_reclamations", "",
        "accounts asked to reclaim", MemoryQuotaCounters::reclamations)),
    /** Participants collapsed. */
    MEMQUOTA_COLLAPSED(count(304, "memquota_participants_collapsed", "",
        "participants collapsed", MemoryQuotaCounters::participantsCollapsed)),
    /** Bytes reclaimed. */
    MEMQUOTA_BYTES_RECLAIMED(count(305, "memquota_bytes_reclaimed", "",
        "bytes reclaimed", MemoryQuotaCounters::bytesReclaimed)),
    /** Participants that did not reclaim when asked. */
    MEMQUOTA_UNRESPONSIVE(count(306, "memquota_unresponsive", "",
        "participants that did not reclaim when asked", MemoryQuotaCounters::unresponsive)),
    /** Claims refused. */
    MEMQUOTA_REFUSED_CLAIMS(count(307, "memquota_refused_claims", "",
        "claims refused past the hard cap", MemoryQuotaCounters::refusedClaims)),
    /** Accounts. */
    MEMQUOTA_ACCOUNTS(gauge(308, "memquota_accounts", "", "accounts", MemoryQuotaCounters::accounts)),
    /** Times usage passed the max. */
    MEMQUOTA_RECLAIM_EPISODES(count(309, "memquota_reclaim_episodes", "",
        "times usage passed the max", MemoryQuotaCounters::reclaimEpisodes)),
    /** Longest time from passing the max to being under low water. */
    MEMQUOTA_WORST_RECLAIM_NS(gauge(310, "memquota_worst_reclaim_latency_ns", "",
        "longest time from passing the max to being under low water", MemoryQuotaCounters::worstReclaimLatencyNs));

    private final Declaration<MemoryQuotaCounters> declaration;

    MemoryQuotaCounter(final Declaration<MemoryQuotaCounters> declaration)
    {
        this.declaration = declaration;
    }

    @Override
    public Declaration<MemoryQuotaCounters> declaration()
    {
        return declaration;
    }
}
