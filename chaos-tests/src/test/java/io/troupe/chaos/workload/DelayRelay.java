package io.troupe.chaos.workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The chaos suites' UDP delay, for a kernel without {@code netem}: a relay on the node's own address, one listening
 * port per peer, that holds each datagram the node sends that peer for the current delay (plus a uniform jitter,
 * which reorders them) before it forwards it. The host's rules in the node's network namespace
 * ({@code ChaosCluster}: {@code iptables -t nat -A OUTPUT -p udp -d <peer> --dport 40100 ! --sport <relay ports> -j
 * DNAT --to-destination <own address>:<route port>}) send the node's datagrams here from its very first packet, so
 * every flow is translated and the relay's answers reach the node's connected sockets as if from the peer. What the
 * peer sends back to a flow (status messages, NAKs) is passed to the node at once: the delay is one way, node to
 * peer.
 * <p>
 * The delay is read from a file ({@code delayMs jitterMs seed}, absent or {@code 0 0 0} for none) every
 * {@link #SETTING_PERIOD_MS} ms, so the test switches it without touching the node. Counts go to a stats file every
 * second. Fair: at most {@link #MAX_BATCH} datagrams from one socket at a time. Bounded: at most {@link #MAX_HELD}
 * datagrams held (more are dropped and counted), at most {@link #MAX_FLOWS} flows, each closed after
 * {@link #FLOW_IDLE_MS} ms without traffic. One thread, daemon: it ends with the node's JVM.
 */
final class DelayRelay implements Runnable
{
    /** The first of the ports the relay sends to peers from (rules exclude them from the translation). */
    static final int FLOW_PORT_FIRST = 31100;
    static final int MAX_FLOWS = 300;
    static final int MAX_HELD = 50_000;
    static final long FLOW_IDLE_MS = 30_000;
    static final long SETTING_PERIOD_MS = 50;
    static final int SOCKET_BUFFER_BYTES = 2 << 20;
    /**
     * The most datagrams taken from one socket before the others (and the held datagrams that are due) get their
     * turn. Without a bound, a burst of NAKs from a peer (thousands a second once a delay ends and the datagrams held
     * arrive after newer ones) kept the relay forwarding NAKs for seconds while the held data and the retransmits
     * that would have answered them waited: a livelock of the relay, not of the node, that ended sessions.
     */
    static final int MAX_BATCH = 32;

    /** A listening port and the peer endpoint what arrives there goes to. */
    private static final class Route
    {
        final int port;
        final InetSocketAddress target;
        final DatagramChannel channel;
        final Map<SocketAddress, Flow> flows = new HashMap<>();
        long forwarded;
        long returned;

        Route(final int port, final InetSocketAddress target, final DatagramChannel channel)
        {
            this.port = port;
            this.target = target;
            this.channel = channel;
        }
    }

    /** One of the node's sockets sending through a route: the relay's own socket toward the peer for it. */
    private static final class Flow
    {
        final Route route;
        final SocketAddress client;
        final DatagramChannel channel;
        final int port;
        long lastActiveMs;

        Flow(final Route route, final SocketAddress client, final DatagramChannel channel, final int port)
        {
            this.route = route;
            this.client = client;
            this.channel = channel;
            this.port = port;
        }
    }

    private record Held(long dueNs, long order, Flow flow, byte[] datagram)
    {
    }

    private final String bindHost;
    private final Path settingFile;
    private final Path statsFile;
    private final Selector selector;
    private final List<Route> routes = new ArrayList<>();
    private final boolean[] flowPortsUsed = new boolean[MAX_FLOWS];
    private final PriorityQueue<Held> held = new PriorityQueue<>((a, b) ->
        a.dueNs != b.dueNs ? Long.compare(a.dueNs, b.dueNs) : Long.compare(a.order, b.order));
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(65_536);
    private Random random = new Random(0);
    private long delayNs;
    private long jitterNs;
    private String setting = "";
    private long order;
    private long delayed;
    private long dropped;
    private long sendFailures;
    private long sendsRefused;
    private long errors;
    private String lastError = "none";
    private int flowCount;

    /**
     * Binds the routes' ports.
     *
     * @param bindHost    the node's own address.
     * @param routes      listening port to the peer endpoint it relays to.
     * @param settingFile where the delay is read from.
     * @param statsFile   where counts are written.
     */
    DelayRelay(final String bindHost, final Map<Integer, InetSocketAddress> routes, final Path settingFile,
        final Path statsFile)
    {
        this.bindHost = bindHost;
        this.settingFile = settingFile;
        this.statsFile = statsFile;
        try
        {
            selector = Selector.open();
            for (final Map.Entry<Integer, InetSocketAddress> route : routes.entrySet())
            {
                final DatagramChannel channel = buffered(DatagramChannel.open());
                channel.bind(new InetSocketAddress(bindHost, route.getKey()));
                channel.configureBlocking(false);
                final Route r = new Route(route.getKey(), route.getValue(), channel);
                channel.register(selector, SelectionKey.OP_READ, r);
                this.routes.add(r);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("the delay relay cannot bind its ports on " + bindHost, ex);
        }
    }

    /**
     * Parses {@code CHAOS_RELAY}: {@code port=host:port,...}.
     *
     * @return listening port to target.
     */
    static Map<Integer, InetSocketAddress> routes(final String spec)
    {
        final Map<Integer, InetSocketAddress> routes = new HashMap<>();
        for (final String route : spec.split(","))
        {
            final String[] sides = route.trim().split("=");
            final int colon = sides[1].lastIndexOf(':');
            routes.put(Integer.parseInt(sides[0]), new InetSocketAddress(sides[1].substring(0, colon),
                Integer.parseInt(sides[1].substring(colon + 1))));
        }
        return routes;
    }

    /** Starts the relay's thread. */
    void start()
    {
        final Thread thread = new Thread(this, "chaos-delay-relay");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void run()
    {
        long nextSettingMs = 0;
        long nextStatsMs = 0;
        while (!Thread.currentThread().isInterrupted())
        {
            try
            {
                final long nowMs = System.currentTimeMillis();
                if (nowMs >= nextSettingMs)
                {
                    readSetting();
                    expireIdleFlows(nowMs);
                    nextSettingMs = nowMs + SETTING_PERIOD_MS;
                }
                if (nowMs >= nextStatsMs)
                {
                    writeStats();
                    nextStatsMs = nowMs + 1_000;
                }
                final Held next = held.peek();
                final long waitMs = next == null ? SETTING_PERIOD_MS : Math.max(1,
                    Math.min(SETTING_PERIOD_MS, TimeUnit.NANOSECONDS.toMillis(next.dueNs - System.nanoTime())));
                selector.select(waitMs);
                final Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext())
                {
                    final SelectionKey key = keys.next();
                    keys.remove();
                    if (key.attachment() instanceof Route route)
                    {
                        fromNode(route);
                    }
                    else
                    {
                        fromPeer((Flow)key.attachment());
                    }
                }
                sendDue();
            }
            catch (final IOException | RuntimeException ex)
            {
                // a partition takes the node's address away for a while, a setting is half written: go on
                errors++;
                lastError = ex.toString().replace('\n', ' ');
            }
        }
    }

    /** What the node sent a peer: held for the delay, or sent at once when there is none. */
    private void fromNode(final Route route) throws IOException
    {
        SocketAddress client;
        for (int i = 0; i < MAX_BATCH && (client = receive(route.channel)) != null; i++)
        {
            final Flow flow = flow(route, client);
            if (flow == null)
            {
                dropped++;
                continue;
            }
            flow.lastActiveMs = System.currentTimeMillis();
            route.forwarded++;
            if (delayNs == 0 && held.isEmpty())
            {
                send(flow.channel, buffer, null);
                continue;
            }
            if (held.size() >= MAX_HELD)
            {
                dropped++;
                continue;
            }
            final byte[] datagram = new byte[buffer.remaining()];
            buffer.get(datagram);
            final long jitter = jitterNs == 0 ? 0 : (long)((random.nextDouble() * 2 - 1) * jitterNs);
            held.add(new Held(System.nanoTime() + Math.max(0, delayNs + jitter), order++, flow, datagram));
            delayed++;
        }
    }

    /** What a peer answered a flow: to the node's socket at once. */
    private void fromPeer(final Flow flow) throws IOException
    {
        for (int i = 0; i < MAX_BATCH && receive(flow.channel) != null; i++)
        {
            flow.lastActiveMs = System.currentTimeMillis();
            flow.route.returned++;
            send(flow.route.channel, buffer, flow.client);
        }
    }

    private SocketAddress receive(final DatagramChannel channel) throws IOException
    {
        buffer.clear();
        final SocketAddress from = channel.receive(buffer);
        buffer.flip();
        return from;
    }

    private void sendDue() throws IOException
    {
        final long now = System.nanoTime();
        Held next;
        while ((next = held.peek()) != null && next.dueNs - now <= 0)
        {
            held.poll();
            if (next.flow.channel.isOpen())
            {
                send(next.flow.channel, ByteBuffer.wrap(next.datagram), null);
            }
        }
    }

    private void send(final DatagramChannel channel, final ByteBuffer datagram, final SocketAddress to)
    {
        try
        {
            final int sent = to == null ? channel.write(datagram) : channel.send(datagram, to);
            if (sent == 0)
            {
                sendsRefused++; // the socket's buffer is full: lost, as the network would lose it
            }
        }
        catch (final IOException ex)
        {
            sendFailures++; // UDP: lost, as the network would lose it
            lastError = ex.toString().replace('\n', ' ');
        }
    }

    private Flow flow(final Route route, final SocketAddress client) throws IOException
    {
        final Flow known = route.flows.get(client);
        if (known != null)
        {
            return known;
        }
        for (int i = 0; i < MAX_FLOWS; i++)
        {
            if (!flowPortsUsed[i])
            {
                final DatagramChannel channel = buffered(DatagramChannel.open());
                channel.bind(new InetSocketAddress(bindHost, FLOW_PORT_FIRST + i));
                channel.connect(route.target);
                channel.configureBlocking(false);
                final Flow flow = new Flow(route, client, channel, i);
                channel.register(selector, SelectionKey.OP_READ, flow);
                flowPortsUsed[i] = true;
                route.flows.put(client, flow);
                flowCount++;
                return flow;
            }
        }
        return null;
    }

    /** Socket buffers as large as an Aeron driver's, so that a burst is not lost in the relay. */
    private static DatagramChannel buffered(final DatagramChannel channel) throws IOException
    {
        channel.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER_BYTES);
        channel.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER_BYTES);
        return channel;
    }

    private void expireIdleFlows(final long nowMs) throws IOException
    {
        for (final Route route : routes)
        {
            final Iterator<Flow> flows = route.flows.values().iterator();
            while (flows.hasNext())
            {
                final Flow flow = flows.next();
                if (nowMs - flow.lastActiveMs > FLOW_IDLE_MS)
                {
                    flows.remove();
                    flow.channel.close();
                    flowPortsUsed[flow.port] = false;
                    flowCount--;
                }
            }
        }
    }

    private void readSetting() throws IOException
    {
        final String text = Files.exists(settingFile) ?
            Files.readString(settingFile, StandardCharsets.US_ASCII).trim() : "";
        if (text.equals(setting))
        {
            return;
        }
        setting = text;
        final String[] parts = text.isEmpty() ? new String[] {"0", "0", "0"} : text.split("\\s+");
        delayNs = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(parts[0]));
        jitterNs = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(parts[1]));
        random = new Random(Long.parseLong(parts[2]));
    }

    private void writeStats() throws IOException
    {
        final StringBuilder stats = new StringBuilder();
        for (final Route route : routes)
        {
            stats.append("route ").append(route.port).append(' ').append(route.target.getAddress().getHostAddress())
                .append(':').append(route.target.getPort()).append(" forwarded ").append(route.forwarded)
                .append(" returned ").append(route.returned).append(" flows ").append(route.flows.size()).append('\n');
        }
        stats.append("delay_ms ").append(TimeUnit.NANOSECONDS.toMillis(delayNs)).append(" jitter_ms ")
            .append(TimeUnit.NANOSECONDS.toMillis(jitterNs)).append(" delayed ").append(delayed).append(" held ")
            .append(held.size()).append(" dropped ").append(dropped).append(" send_failures ").append(sendFailures)
            .append(" sends_refused ").append(sendsRefused).append(" errors ").append(errors).append(" last_error ")
            .append(lastError)
            .append(" flows ").append(flowCount).append('\n');
        final Path tmp = statsFile.resolveSibling(statsFile.getFileName() + ".tmp");
        Files.writeString(tmp, stats, StandardCharsets.US_ASCII);
        Files.move(tmp, statsFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
