package io.troupe.ops;

import io.troupe.node.counters.CounterType;
import picocli.CommandLine.Command;


/** {@code troupe memquota}: the node's memory quota: use, limits, reclaiming. */
@Command(name = "memquota", description = "the node's memory quota: bytes used of max and low water, accounts, " +
    "reclaims and collapses")
final class MemquotaCommand extends ReadCommand
{
    private static final CounterType[] SHOWN = {CounterType.MEMQUOTA_USED_BYTES, CounterType.MEMQUOTA_MAX_BYTES,
        CounterType.MEMQUOTA_LOW_WATER_BYTES, CounterType.MEMQUOTA_ACCOUNTS, CounterType.MEMQUOTA_RECLAIM_EPISODES,
        CounterType.MEMQUOTA_RECLAMATIONS, CounterType.MEMQUOTA_BYTES_RECLAIMED, CounterType.MEMQUOTA_COLLAPSED,
        CounterType.MEMQUOTA_UNRESPONSIVE, CounterType.MEMQUOTA_REFUSED_CLAIMS, CounterType.MEMQUOTA_WORST_RECLAIM_NS,
        CounterType.MAILBOXES_COLLAPSED};

    @Override
    int run(final NodeSnapshot node)
    {
        return FigureList.print(this, node, SHOWN, "memquota_", node.get(CounterType.MEMQUOTA_MAX_BYTES) == 0 ?
            "the memory quota is disabled (troupe.memquota.max = 0)" : null);
    }
}
