package io.troupe.memquota;

import io.troupe.memquota.CounterDescriptor;

import java.util.function.ToLongFunction;

/** The memory quota's counters (type ids 300..399), each read from the tracker's {@link MemoryQuotaCounters}. */
public enum MemoryQuotaCounter implements CounterDescriptor.Of<MemoryQuotaCounters>
{
    /** Bytes claimed. */
    MEMQUOTA_USED_BYTES(300, "memquota_used_bytes", Kind.GAUGE, "", "bytes claimed", MemoryQuotaCounters::usedBytes),
    /** The quota (0: disabled; a node without a quota runs its tracker with no limit, {@code Long.MAX_VALUE}). */
    MEMQUOTA_MAX_BYTES(301, "memquota_max_bytes", Kind.GAUGE, "",
        "the quota (0: disabled)", c -> c.maxBytes() == Long.MAX_VALUE ? 0 : c.maxBytes()),
    /** Where reclaiming stops. */
    MEMQUOTA_LOW_WATER_BYTES(302, "memquota_low_water_bytes", Kind.GAUGE, "",
        "where reclaiming stops", c -> c.maxBytes() == Long.MAX_VALUE ? 0 : c.lowWaterBytes()),
    /** Accounts asked to reclaim. */
    MEMQUOTA_RECLAMATIONS(303, "memquota_reclamations", Kind.COUNT, "",
        "accounts asked to reclaim", MemoryQuotaCounters::reclamations),
    /** Participants collapsed. */
    MEMQUOTA_COLLAPSED(304, "memquota_participants_collapsed", Kind.COUNT, "",
        "participants collapsed", MemoryQuotaCounters::participantsCollapsed),
    /** Bytes reclaimed. */
    MEMQUOTA_BYTES_RECLAIMED(305, "memquota_bytes_reclaimed", Kind.COUNT, "",
        "bytes reclaimed", MemoryQuotaCounters::bytesReclaimed),
    /** Participants that did not reclaim when asked. */
    MEMQUOTA_UNRESPONSIVE(306, "memquota_unresponsive", Kind.COUNT, "",
        "participants that did not reclaim when asked", MemoryQuotaCounters::unresponsive),
    /** Claims refused. */
    MEMQUOTA_REFUSED_CLAIMS(307, "memquota_refused_claims", Kind.COUNT, "",
        "claims refused", MemoryQuotaCounters::refusedClaims),
    /** Accounts. */
    MEMQUOTA_ACCOUNTS(308, "memquota_accounts", Kind.GAUGE, "", "accounts", MemoryQuotaCounters::accounts),
    /** Times usage passed the max. */
    MEMQUOTA_RECLAIM_EPISODES(309, "memquota_reclaim_episodes", Kind.COUNT, "",
        "times usage passed the max", MemoryQuotaCounters::reclaimEpisodes),
    /** Longest time from passing the max to being under low water. */
    MEMQUOTA_WORST_RECLAIM_NS(310, "memquota_worst_reclaim_latency_ns", Kind.GAUGE, "",
        "longest time from passing the max to being under low water", MemoryQuotaCounters::worstReclaimLatencyNs);

    private final Declaration declaration;
    private final ToLongFunction<MemoryQuotaCounters> reader;

    MemoryQuotaCounter(final int typeId, final String metricName, final Kind kind, final String labels,
        final String doc, final ToLongFunction<MemoryQuotaCounters> reader)
    {
        this.declaration = new Declaration(typeId, metricName, kind, labels, doc);
        this.reader = reader;
    }

    @Override
    public Declaration declaration()
    {
        return declaration;
    }

    @Override
    public ToLongFunction<MemoryQuotaCounters> reader()
    {
        return reader;
    }
}
