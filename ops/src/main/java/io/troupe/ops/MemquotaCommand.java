package io.troupe.ops;

import io.troupe.memquota.CounterDescriptor;
import io.troupe.memquota.MemoryQuotaCounter;
import io.troupe.actor.SystemCounter;
import picocli.CommandLine.Command;


/** {@code troupe memquota}: the node's memory quota: use, limits, reclaiming. */
@Command(name = "memquota", description = "the node's memory quota: bytes used of max and low water, accounts, " +
    "reclaims and collapses")
final class MemquotaCommand extends ReadCommand
{
    private static final CounterDescriptor[] SHOWN = {
        MemoryQuotaCounter.MEMQUOTA_USED_BYTES, MemoryQuotaCounter.MEMQUOTA_MAX_BYTES,
        MemoryQuotaCounter.MEMQUOTA_LOW_WATER_BYTES, MemoryQuotaCounter.MEMQUOTA_ACCOUNTS,
        MemoryQuotaCounter.MEMQUOTA_RECLAIM_EPISODES, MemoryQuotaCounter.MEMQUOTA_RECLAMATIONS,
        MemoryQuotaCounter.MEMQUOTA_BYTES_RECLAIMED, MemoryQuotaCounter.MEMQUOTA_COLLAPSED,
        MemoryQuotaCounter.MEMQUOTA_UNRESPONSIVE, MemoryQuotaCounter.MEMQUOTA_REFUSED_CLAIMS,
        MemoryQuotaCounter.MEMQUOTA_WORST_RECLAIM_NS, SystemCounter.MAILBOXES_COLLAPSED};

    @Override
    int run(final NodeSnapshot node)
    {
        return FigureList.print(this, node, SHOWN, "memquota_", node.get(MemoryQuotaCounter.MEMQUOTA_MAX_BYTES) == 0 ?
            "the memory quota is disabled (troupe.memquota.max = 0)" : null);
    }
}
