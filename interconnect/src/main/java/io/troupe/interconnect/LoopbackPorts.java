package io.troupe.interconnect;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * Free UDP ports on the loopback address, for nodes started together on one host (a development cluster, a
 * test). All ports of one call are bound at once
 * before any is released, so they are distinct; another process may still take one before the node binds it,
 * which shows as a node that cannot start (a clear error), never as two nodes sharing a port.
 */
public final class LoopbackPorts
{
    private LoopbackPorts()
    {
    }

    /**
     * Distinct free UDP ports on 127.0.0.1.
     *
     * @param count how many, 1..1024.
     * @return the ports.
     * @throws IllegalArgumentException if count is out of range.
     * @throws UncheckedIOException     if no port can be bound.
     */
    public static int[] freeUdp(final int count)
    {
        if (count < 1 || count > 1024)
        {
            throw new IllegalArgumentException("count " + count + " out of range 1..1024");
        }
        final DatagramSocket[] sockets = new DatagramSocket[count];
        try
        {
            final int[] ports = new int[count];
            for (int i = 0; i < count; i++)
            {
                sockets[i] = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                ports[i] = sockets[i].getLocalPort();
            }
            return ports;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot bind a free UDP port on the loopback address", ex);
        }
        finally
        {
            for (final DatagramSocket socket : sockets)
            {
                if (socket != null)
                {
                    socket.close();
                }
            }
        }
    }
}
