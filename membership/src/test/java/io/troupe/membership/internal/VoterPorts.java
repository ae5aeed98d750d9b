package io.troupe.membership.internal;

import io.troupe.interconnect.LoopbackPorts;
import io.troupe.membership.table.VoterAddress;

import java.util.ArrayList;
import java.util.List;

/** Voter addresses on 127.0.0.1 whose five ports each are free now, below the kernel's ephemeral range. */
final class VoterPorts
{
    private VoterPorts()
    {
    }

    static List<VoterAddress> voters(final int count, final int firstNodeId)
    {
        final int[] firsts = LoopbackPorts.freeUdpRuns(count, VoterAddress.PORTS);
        final List<VoterAddress> voters = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            voters.add(new VoterAddress(firstNodeId + i, "127.0.0.1", firsts[i]));
        }
        return voters;
    }
}
