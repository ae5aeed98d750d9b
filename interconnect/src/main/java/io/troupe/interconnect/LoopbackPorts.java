package io.troupe.interconnect;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free UDP ports on the loopback address, for nodes started together on one host (a development cluster, a
 * test). All ports of one call are bound at once
 * before any is released, so they are distinct. They are picked below the kernel's ephemeral range where it is known
 * ({@code /proc/sys/net/ipv4/ip_local_port_range}): a port from that range, once released, is what the kernel hands
 * the next socket bound to port 0, such as a media driver's sending socket, so a node started a moment later could
 * find its port taken. Another process may still take one before the node binds it, which shows as a node that
 * cannot start (a clear error), never as two nodes sharing a port.
 *
 * <p>Processes that pick ports side by side, such as two test JVMs of one build, each take a share of the range
 * with the system property {@value #SHARE_PROPERTY} = {@code k/n} (the k-th of n equal slices), so that one never
 * picks a port the other has picked and not yet bound.
 */
public final class LoopbackPorts
{
    /** The lowest port picked; the range ends below the ephemeral range. */
    static final int FIRST = 10_000;
    /**
     * The system property that gives this process a share of the range: {@code k/n}, the k-th of n slices, n at most
     * 64; a k above n wraps (Maven's surefire numbers the forks of a build on from one module to the next).
     */
    public static final String SHARE_PROPERTY = "troupe.test.ports-share";
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

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
        final int[] range = range(ephemeralStart(), System.getProperty(SHARE_PROPERTY));
        try
        {
            final int[] ports = new int[count];
            for (int i = 0; i < count; i++)
            {
                sockets[i] = range[1] - range[0] >= 64 * count ? bindIn(range[0], range[1]) : null;
                if (sockets[i] == null)
                {
                    sockets[i] = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                }
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

    /**
     * Runs of consecutive free UDP ports on 127.0.0.1, below the ephemeral range and in this process's share of it
     * (for a membership voter, which takes several from its first), the runs apart from each other.
     *
     * @param runs   how many runs, 1..64.
     * @param length ports per run, 1..16.
     * @return the first port of each run.
     * @throws IllegalArgumentException if a count is out of range.
     * @throws IllegalStateException    if no such runs were found.
     */
    public static int[] freeUdpRuns(final int runs, final int length)
    {
        if (runs < 1 || runs > 64 || length < 1 || length > 16)
        {
            throw new IllegalArgumentException(runs + " runs of " + length + " ports: allowed 1..64 of 1..16");
        }
        final int[] range = range(ephemeralStart() > FIRST + 1024 ? ephemeralStart() : 32_768,
            System.getProperty(SHARE_PROPERTY));
        final int[] firsts = new int[runs];
        int found = 0;
        for (int attempt = 0; attempt < 1_000 && found < runs; attempt++)
        {
            final int first = ThreadLocalRandom.current().nextInt(range[0], range[1] - length);
            boolean apart = true;
            for (int i = 0; i < found; i++)
            {
                apart &= Math.abs(firsts[i] - first) >= length;
            }
            if (apart && runFree(first, length))
            {
                firsts[found++] = first;
            }
        }
        if (found < runs)
        {
            throw new IllegalStateException("found only " + found + " of " + runs + " runs of " + length +
                " free UDP ports on the loopback address");
        }
        return firsts;
    }

    private static boolean runFree(final int first, final int length)
    {
        for (int port = first; port < first + length; port++)
        {
            try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                port)))
            {
                socket.getLocalPort();
            }
            catch (final IOException taken)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * The range ports are picked from: {@link #FIRST} up to the ephemeral range, or this process's share of it.
     *
     * @param below the start of the ephemeral range, 0 if unknown (then the range is empty: the kernel picks).
     * @param share {@code k/n}, or null for the whole range.
     * @return {from, to}, to exclusive.
     * @throws IllegalArgumentException if the share is not {@code k/n} with k &ge; 1 and 1 &le; n &le; 64.
     */
    static int[] range(final int below, final String share)
    {
        if (below <= FIRST)
        {
            return new int[] {FIRST, FIRST};
        }
        if (share == null || share.isBlank())
        {
            return new int[] {FIRST, below};
        }
        final String problem = SHARE_PROPERTY + " = " + share + ": allowed k/n, k >= 1, 1 <= n <= 64";
        final String[] parts = share.trim().split("/", -1);
        final int k;
        final int n;
        try
        {
            k = Integer.parseInt(parts[0]);
            n = parts.length == 2 ? Integer.parseInt(parts[1]) : -1;
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(problem, ex);
        }
        if (n < 1 || n > 64 || k < 1)
        {
            throw new IllegalArgumentException(problem);
        }
        final int slice = (below - FIRST) / n;
        final int index = (k - 1) % n;
        return new int[] {FIRST + index * slice, FIRST + (index + 1) * slice};
    }

    /** A socket on a free port in [from, to), or null if a few tries found none. */
    private static DatagramSocket bindIn(final int from, final int to)
    {
        for (int attempt = 0; attempt < 64; attempt++)
        {
            final int port = ThreadLocalRandom.current().nextInt(from, to);
            try
            {
                return new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            }
            catch (final IOException taken)
            {
                // in use: try another
            }
        }
        return null;
    }

    /** The first port of the kernel's ephemeral range, or 0 where it is not known (then ports come from it). */
    static int ephemeralStart()
    {
        // read by line: Files.readString trusts the size /proc reports for its files, and reads one byte
        try (BufferedReader reader = Files.newBufferedReader(EPHEMERAL_RANGE, StandardCharsets.US_ASCII))
        {
            final String[] range = reader.readLine().trim().split("\\s+");
            return Integer.parseInt(range[0]);
        }
        catch (final IOException | RuntimeException unknown)
        {
            return 0;
        }
    }
}
