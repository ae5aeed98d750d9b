package io.troupe.membership.internal;

import io.troupe.membership.table.VoterAddress;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** Voter addresses on 127.0.0.1 whose five ports each are free now, below the kernel's ephemeral range. */
final class VoterPorts
{
    private VoterPorts()
    {
    }

    static List<VoterAddress> voters(final int count, final int firstNodeId)
    {
        final List<VoterAddress> voters = new ArrayList<>(count);
        while (voters.size() < count)
        {
            final int base = 10_000 + ThreadLocalRandom.current().nextInt(4_000) * VoterAddress.PORTS;
            if (free(base) && voters.stream().noneMatch(v -> Math.abs(v.port() - base) < VoterAddress.PORTS))
            {
                voters.add(new VoterAddress(firstNodeId + voters.size(), "127.0.0.1", base));
            }
        }
        return voters;
    }

    private static boolean free(final int base)
    {
        for (int port = base; port < base + VoterAddress.PORTS; port++)
        {
            try (DatagramSocket socket = new DatagramSocket(null))
            {
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            }
            catch (final IOException ex)
            {
                return false;
            }
        }
        return true;
    }
}
