package io.troupe.samples.demo;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.ActorRef;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import io.troupe.actor.NodeConnected;
import io.troupe.actor.NodeDisconnected;
import io.troupe.actor.SystemCounters;
import io.troupe.actor.UndeliveredException;
import io.troupe.actor.FlowControl;
import io.troupe.interconnect.PeerCounters;
import io.troupe.membership.Membership;
import io.troupe.node.Node;
import io.troupe.node.NodeConfig;
import io.troupe.node.NodeConfigLoader;
import io.troupe.node.local.LocalCluster;
import io.troupe.node.local.NodeProcess;
import io.troupe.ops.TroupeCli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code ./troupe demo}: a 3-node cluster on 127.0.0.1 in three processes. Node 1 runs in this process and
 * drives the workload; nodes 2 and 3 run in child JVMs ({@link DemoNode}, with the services of {@link DemoRole}).
 * It waits for every session and for every node to be ready, runs remote ping-pong between nodes 1 and 2, asks
 * node 3's echo service, stops node 3 with SIGTERM and times how long node 1 takes to see it go, prints node 1's
 * per-peer counters, and stops everything: no child process and no Aeron directory is left, on success or failure.
 */
public final class ClusterDemo
{
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration ASK_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(15);
    private static final long WARMUP_MS = 500;
    private static final int ASKS = 200;

    private final PrintStream out;
    private final int seconds;
    private final int balls;
    private final long startNs = System.nanoTime();

    private ClusterDemo(final PrintStream out, final int seconds, final int balls)
    {
        this.out = out;
        this.seconds = seconds;
        this.balls = balls;
    }

    /**
     * Runs the demo.
     *
     * @param args {@code --seconds N} (ping-pong duration, default 3), {@code --pairs N} (balls in flight between
     *             nodes 1 and 2, default 4).
     * @param out  where the report goes.
     * @param err  where errors go.
     * @return the exit code: 0 on success, 1 if a step failed, 2 for a usage error.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        int seconds = 3;
        int balls = 4;
        try
        {
            for (int i = 0; i < args.length; i += 2)
            {
                if (i + 1 >= args.length)
                {
                    throw new IllegalArgumentException("option " + args[i] + " needs a value");
                }
                final int value = Integer.parseInt(args[i + 1]);
                switch (args[i])
                {
                    case "--seconds" -> seconds = requireRange("--seconds", value, 1, 3600);
                    case "--pairs" -> balls = requireRange("--pairs", value, 1, 1000);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
        }
        catch (final IllegalArgumentException ex)
        {
            err.println("troupe demo: " + ex.getMessage());
            err.println("usage: troupe demo [--seconds N] [--pairs N]   or   troupe demo --local [--seconds N] " +
                "[--pairs N] [--threads N]");
            return 2;
        }
        final Path dir;
        try
        {
            dir = Files.createTempDirectory("troupe-demo-");
        }
        catch (final IOException ex)
        {
            err.println("troupe demo: cannot create a temporary directory: " + ex);
            return 1;
        }
        if (System.getProperty("org.slf4j.simpleLogger.logFile") == null)
        {
            // node 1's log would interleave with the report: it goes to a file beside the child nodes' logs
            System.setProperty("org.slf4j.simpleLogger.logFile", dir.resolve("node-1.log").toString());
        }
        try
        {
            new ClusterDemo(out, seconds, balls).run(dir);
            LocalCluster.deleteTree(dir);
            return 0;
        }
        catch (final DemoFailure ex)
        {
            out.flush();
            err.println("troupe demo: FAILED: " + ex.getMessage());
            err.println("troupe demo: configs and node logs are kept in " + dir);
            return 1;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            err.println("troupe demo: interrupted; configs and node logs are kept in " + dir);
            return 1;
        }
        catch (final RuntimeException ex)
        {
            out.flush();
            err.println("troupe demo: FAILED: " + ex);
            ex.printStackTrace(err);
            err.println("troupe demo: configs and node logs are kept in " + dir);
            return 1;
        }
    }

    private static int requireRange(final String name, final int value, final int min, final int max)
    {
        if (value < min || value > max)
        {
            throw new IllegalArgumentException(name + " " + value + " out of range " + min + ".." + max);
        }
        return value;
    }

    private void run(final Path dir) throws InterruptedException
    {
        // node 1 runs the membership's one voter in its process; the others join through it
        final LocalCluster cluster = LocalCluster.withMembership(dir, 3, 1);
        final Node[] local = new Node[1];
        final Thread hook = new Thread(() ->
        {
            // Ctrl-C or SIGTERM while the demo runs: the children go too, and the files
            cluster.close();
            if (local[0] != null)
            {
                local[0].close();
            }
            LocalCluster.deleteTree(dir);
            out.println("troupe demo: interrupted; every node stopped, files removed");
            out.flush();
        }, "troupe-demo-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
        try
        {
            out.printf("Troupe demo: 3 nodes on 127.0.0.1 in 3 processes; node 1 runs here (pid %d) and drives the " +
                "workload%n", ProcessHandle.current().pid());
            out.printf("cluster   \"%s\", UDP ports %d, %d, %d; configs and logs in %s%n", cluster.clusterId(),
                cluster.port(1), cluster.port(2), cluster.port(3), dir);
            final NodeProcess two = DemoNode.start(cluster, 2);
            final NodeProcess three = DemoNode.start(cluster, 3);
            final NodeConfig config = NodeConfigLoader.load(cluster.configFile(1), new Properties());
            final Node one = Node.start(config, DemoNode.codecs());
            local[0] = one;

            awaitSessions(one, two, three);
            ReadinessWait.await(cluster, STARTUP_TIMEOUT);
            out.printf(Locale.ROOT, "ready     all 3 after %.1f s: members UP, directory replicas open%n",
                (System.nanoTime() - startNs) / 1e9);
            pingPong(one);
            ask(one);
            cli(cluster);
            new MemberJoinStep(this, out, cluster, one).run();
            stopNodeThree(one, three, cluster);
            counters(one);
            shutdown(one, two, cluster);
            out.printf(Locale.ROOT, "done      in %.1f s%n", (System.nanoTime() - startNs) / 1e9);
        }
        finally
        {
            cluster.close();
            if (local[0] != null)
            {
                local[0].close();
            }
            try
            {
                Runtime.getRuntime().removeShutdownHook(hook);
            }
            catch (final IllegalStateException ex)
            {
                // the JVM is shutting down and the hook is running or has run
            }
        }
    }

    // ------------------------------------------------------------------ steps

    private void awaitSessions(final Node one, final NodeProcess two, final NodeProcess three)
        throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        final NodeProcess[] children = {two, three};
        final DemoEvents.Status[] status = new DemoEvents.Status[2];
        while (true)
        {
            for (final NodeProcess child : children)
            {
                if (!child.isAlive())
                {
                    throw new DemoFailure("node " + child.nodeId() + " exited with " + child.awaitExit(Duration.ZERO) +
                        " while starting; the end of its log:" + System.lineSeparator() + child.logTail(15));
                }
            }
            if (one.interconnect().isConnected(2) && one.interconnect().isConnected(3))
            {
                status[0] = status(one, 2);
                status[1] = status(one, 3);
                if (status[0] != null && "1,3".equals(status[0].peersUp()) &&
                    status[1] != null && "1,2".equals(status[1].peersUp()))
                {
                    break;
                }
            }
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new DemoFailure("the sessions were not all up after " + STARTUP_TIMEOUT.toSeconds() + " s: " +
                    "node 1 sees node 2 " + upOrDown(one, 2) + ", node 3 " + upOrDown(one, 3) + "; node 2 reports " +
                    status[0] + ", node 3 " + status[1] + "; the end of node 2's log:" + System.lineSeparator() +
                    two.logTail(10));
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
        out.printf(Locale.ROOT, "sessions  all 3 up after %.1f s: node 1 (pid %d) <-> node 2 (pid %d) <-> node 3 " +
            "(pid %d) <-> node 1%n", (System.nanoTime() - startNs) / 1e9, ProcessHandle.current().pid(),
            status[0].pid(), status[1].pid());
    }

    private static String upOrDown(final Node node, final int peer)
    {
        return node.interconnect().isConnected(peer) ? "up" : "down";
    }

    /** Asks a node's status service; null if it does not answer in time. */
    private static DemoEvents.Status status(final Node one, final int nodeId) throws InterruptedException
    {
        try
        {
            return one.system().ask(DemoEvents.STATUS_SERVICE.on(nodeId), DemoEvents.StatusRequest::new,
                DemoEvents.Status.class, Duration.ofSeconds(1)).get();
        }
        catch (final ExecutionException ex)
        {
            return null;
        }
    }

    private void pingPong(final Node one) throws InterruptedException
    {
        final ActorRef<DemoEvents.Ping> target = DemoEvents.PING_PONG.on(2);
        out.printf("ping-pong node 1 -> %s on node 2: %d balls in flight for %d s (after a %d ms warm-up) ...%n",
            target, balls, seconds, WARMUP_MS);
        final ActorSystem system = one.system();
        final ActorId[] pingers = new ActorId[balls];
        for (int i = 0; i < balls; i++)
        {
            pingers[i] = system.register(new Pinger(target));
            system.send(pingers[i], Command.START);
        }
        TimeUnit.MILLISECONDS.sleep(WARMUP_MS);
        for (final ActorId pinger : pingers)
        {
            system.send(pinger, Command.RESET);
        }
        TimeUnit.SECONDS.sleep(seconds);
        long roundTrips = 0;
        long windowNs = 0;
        long[] samples = new long[0];
        for (final ActorId pinger : pingers)
        {
            final PingStats stats = (PingStats)await(system, pinger, Command.STOP, "the ping-pong's figures");
            roundTrips += stats.roundTrips();
            windowNs = Math.max(windowNs, stats.windowNs());
            final int at = samples.length;
            samples = Arrays.copyOf(samples, at + stats.samples().length);
            System.arraycopy(stats.samples(), 0, samples, at, stats.samples().length);
        }
        if (roundTrips == 0)
        {
            throw new DemoFailure("no ball came back from node 2 in " + seconds + " s");
        }
        Arrays.sort(samples);
        final double windowS = windowNs / 1e9;
        out.printf(Locale.ROOT,
            "          %,d round trips = %,d messages in %.2f s: %,.0f msgs/s (%,.0f round trips/s)%n",
            roundTrips, 2 * roundTrips, windowS, 2 * roundTrips / windowS, roundTrips / windowS);
        out.printf(Locale.ROOT, "          round trip p50 %s, p90 %s, p99 %s, p99.9 %s, max %s%n",
            micros(percentile(samples, 0.50)), micros(percentile(samples, 0.90)), micros(percentile(samples, 0.99)),
            micros(percentile(samples, 0.999)), micros(samples[samples.length - 1]));
    }

    private void ask(final Node one) throws InterruptedException
    {
        final ActorRef<DemoEvents.EchoRequest> echo = DemoEvents.ECHO.on(3);
        final String text = "hello from node 1";
        final long askNs = System.nanoTime();
        final DemoEvents.Text reply = echo(one.system(), echo, text);
        final long firstNs = System.nanoTime() - askNs;
        if (!("echo: " + text).equals(reply.text()))
        {
            throw new DemoFailure("node 3's echo service answered " + reply);
        }
        out.printf(Locale.ROOT, "ask       %s \"%s\" -> \"%s\" in %s%n", echo, text, reply.text(), millis(firstNs));
        final long[] latencies = new long[ASKS];
        for (int i = 0; i < ASKS; i++)
        {
            final long startNs = System.nanoTime();
            echo(one.system(), echo, "ask " + i);
            latencies[i] = System.nanoTime() - startNs;
        }
        Arrays.sort(latencies);
        out.printf("          %d more asks one after another: p50 %s, p99 %s, max %s%n", ASKS,
            millis(percentile(latencies, 0.50)), millis(percentile(latencies, 0.99)), millis(latencies[ASKS - 1]));
    }

    private void stopNodeThree(final Node one, final NodeProcess three, final LocalCluster cluster)
        throws InterruptedException
    {
        final BlockingQueue<Sighting> sightings = new LinkedBlockingQueue<>();
        one.system().send(one.system().register(new Watcher(3, sightings)), Command.START);
        final Sighting connected = sightings.poll(ASK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        if (connected == null || !(connected.event() instanceof NodeConnected))
        {
            throw new DemoFailure("node 1's watcher of node 3 heard " + connected + " instead of NodeConnected(3)");
        }
        out.printf("stop      SIGTERM to node 3 (pid %d), which node 1 watches%n", three.pid());
        final long stopNs = System.nanoTime();
        three.terminate();
        final Sighting disconnected = sightings.poll(EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        if (disconnected == null || !(disconnected.event() instanceof NodeDisconnected))
        {
            throw new DemoFailure("node 1 did not see node 3 go within " + EXIT_TIMEOUT.toSeconds() + " s (heard " +
                disconnected + ")");
        }
        out.printf("          node 1 got NodeDisconnected(3) after %s (a goodbye; a silent node takes %d ms to " +
            "detect)%n", millis(disconnected.atNs() - stopNs),
            NodeConfigLoader.load(cluster.configFile(1), new Properties()).interconnectConfig()
                .failureTimeout().toMillis());
        final Integer exitCode = three.awaitExit(EXIT_TIMEOUT);
        if (exitCode == null)
        {
            throw new DemoFailure("node 3 did not exit within " + EXIT_TIMEOUT.toSeconds() + " s of SIGTERM");
        }
        final Path aeronDir = cluster.aeronDir(3);
        out.printf("          node 3 exited with %d after %s; its Aeron dir %s%n", exitCode,
            millis(System.nanoTime() - stopNs), Files.exists(aeronDir) ? "is still there: " + aeronDir : "is gone");
        if (exitCode != 0 || Files.exists(aeronDir))
        {
            throw new DemoFailure("node 3 did not stop cleanly; the end of its log:" + System.lineSeparator() +
                three.logTail(15));
        }
        final long askNs = System.nanoTime();
        final String outcome = outcome(one.system(), DemoEvents.ECHO.on(3));
        out.printf("          ask %s now -> %s in %s%n", DemoEvents.ECHO.on(3), outcome,
            millis(System.nanoTime() - askNs));
    }

    /** The troupe CLI against node 2, a child process, read from its data directory as an operator would. */
    private void cli(final LocalCluster cluster)
    {
        final String dataDir = NodeConfigLoader.load(cluster.configFile(2), new Properties()).dataDir().toString();
        cliRun("status", "--data-dir", dataDir);
        cliRun("counters", "--filter", "peer_(connected|events)|pool_events", "--data-dir", dataDir);
    }

    void cliRun(final String... args)
    {
        final StringBuilder typed = new StringBuilder("troupe    ./troupe");
        for (final String arg : args)
        {
            typed.append(' ').append(arg.matches("[-A-Za-z0-9_./=:]+") ? arg : "'" + arg + "'");
        }
        out.println(typed);
        final ByteArrayOutputStream printed = new ByteArrayOutputStream();
        final PrintStream stream = new PrintStream(printed, true, StandardCharsets.UTF_8);
        final int code = TroupeCli.run(args, stream, stream);
        printed.toString(StandardCharsets.UTF_8).lines().forEach(line -> out.println("          " + line));
        if (code != 0)
        {
            out.println("          (exit code " + code + ")");
        }
    }

    private void counters(final Node one)
    {
        out.println("counters  node 1   peer  session  rtt       events out           events in            " +
            "sessions up/down  pushed back  shed  lost");
        for (final PeerCounters peer : one.interconnect().peerCounters())
        {
            // the smoothed round trip of the heartbeats, none once the session is down
            final String rtt = peer.rttSmoothedNs() == 0 ? "-" :
                String.format(Locale.ROOT, "%,d us", peer.rttSmoothedNs() / 1000);
            out.printf(Locale.ROOT, "                 %4d  %-7s  %-8s  %-19s  %-19s  %-16s  %11d  %4d  %4d%n",
                peer.nodeId(), peer.connected() ? "up" : "down", rtt,
                String.format(Locale.ROOT, "%,d (%s)", peer.eventsOut(), bytes(peer.bytesOut())),
                String.format(Locale.ROOT, "%,d (%s)", peer.eventsIn(), bytes(peer.bytesIn())),
                peer.sessionsUp() + " / " + peer.sessionsDown(), peer.backPressured(), peer.shed(),
                peer.lostUnsure() + peer.lostQueued());
        }
        final SystemCounters counters = one.system().counters();
        out.printf(Locale.ROOT, "          node 1's actors handled %,d events; undelivered %d, dropped %d, dead " +
            "letters %d, handler failures %d%n", counters.eventsHandled(), counters.undelivered(), counters.dropped(),
            counters.deadLetters(), counters.handlerFailures());
        final FlowControl flow = one.system().flow();
        out.printf(Locale.ROOT, "          credit: node 1 has %d account%s open (its own owes %d), %d written off; " +
            "it shadows %d of other nodes' accounts (%d idle ones forgotten)%n", flow.openAccounts(),
            flow.openAccounts() == 1 ? "" : "s", flow.nodeAccount().debt(), flow.writtenOff(), flow.shadowCount(),
            flow.shadowsForgotten());
    }

    private void shutdown(final Node one, final NodeProcess two, final LocalCluster cluster) throws InterruptedException
    {
        final long stopNs = System.nanoTime();
        two.terminate();
        one.close();
        final long oneClosedNs = System.nanoTime() - stopNs;
        final Integer exitCode = two.awaitExit(EXIT_TIMEOUT);
        final long twoExitedNs = System.nanoTime() - stopNs;
        if (exitCode == null || exitCode != 0)
        {
            throw new DemoFailure("node 2 " + (exitCode == null ? "did not exit within " + EXIT_TIMEOUT.toSeconds() +
                " s of SIGTERM" : "exited with " + exitCode) + "; the end of its log:" + System.lineSeparator() +
                two.logTail(15));
        }
        final StringBuilder left = new StringBuilder();
        for (int id = 1; id <= cluster.size(); id++)
        {
            final Path transport = cluster.aeronDir(id);
            for (final Path dir : new Path[] {transport, Path.of(Membership.aeronDirBeside(transport.toString()))})
            {
                if (Files.exists(dir))
                {
                    left.append(' ').append(dir);
                }
            }
        }
        if (left.length() > 0)
        {
            throw new DemoFailure("Aeron dirs left behind:" + left);
        }
        out.printf("shutdown  node 1 closed in %s (%s); node 2 exited with 0 after %s (SIGTERM)%n", millis(oneClosedNs),
            one.drained() ? "drained" : "drain deadline passed", millis(twoExitedNs));
        out.println("          no node process left, all Aeron dirs removed");
    }

    // ------------------------------------------------------------------ helpers

    private static Object await(final ActorSystem system, final ActorId target, final Object request, final String what)
        throws InterruptedException
    {
        try
        {
            return system.ask(target, request, ASK_TIMEOUT).get();
        }
        catch (final ExecutionException ex)
        {
            throw new DemoFailure("no answer from " + target + " for " + what + ": " + describe(ex.getCause()));
        }
    }

    /** Asks an echo service; a {@link DemoFailure} if it does not answer. */
    static DemoEvents.Text echo(
        final ActorSystem system, final ActorRef<DemoEvents.EchoRequest> echo,
        final String text) throws InterruptedException
    {
        try
        {
            return system.ask(echo, replyTo -> new DemoEvents.EchoRequest(text, replyTo), DemoEvents.Text.class,
                ASK_TIMEOUT).get();
        }
        catch (final ExecutionException ex)
        {
            throw new DemoFailure("no answer from " + echo + " for the echo service's answer: " +
                describe(ex.getCause()));
        }
    }

    /** What an ask ends with, as text: the answer, or how it failed. */
    private static String outcome(final ActorSystem system, final ActorRef<DemoEvents.EchoRequest> target)
        throws InterruptedException
    {
        try
        {
            return String.valueOf(system.ask(target, replyTo -> new DemoEvents.EchoRequest("anyone?", replyTo),
                DemoEvents.Text.class, ASK_TIMEOUT).get());
        }
        catch (final ExecutionException ex)
        {
            return describe(ex.getCause());
        }
    }

    private static String describe(final Throwable cause)
    {
        if (cause instanceof UndeliveredException)
        {
            return "Undelivered(" + ((UndeliveredException)cause).undelivered().reason() + ")";
        }
        if (cause instanceof TimeoutException)
        {
            return "no answer within " + ASK_TIMEOUT.toMillis() + " ms";
        }
        return String.valueOf(cause);
    }

    static long percentile(final long[] sorted, final double fraction)
    {
        final int index = (int)Math.ceil(fraction * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private static String micros(final long nanos)
    {
        return String.format(Locale.ROOT, "%,d us", Math.round(nanos / 1e3));
    }

    static String millis(final long nanos)
    {
        return String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
    }

    private static String bytes(final long bytes)
    {
        if (bytes >= 10L << 20)
        {
            return String.format(Locale.ROOT, "%.1f MiB", bytes / (double)(1L << 20));
        }
        if (bytes >= 10L << 10)
        {
            return String.format(Locale.ROOT, "%.1f KiB", bytes / (double)(1L << 10));
        }
        return bytes + " bytes";
    }

    // ------------------------------------------------------------------ actors of node 1

    /** What the driver tells node 1's actors. */
    private enum Command
    {
        START, RESET, STOP
    }

    /** A pinger's figures since its last reset. */
    private record PingStats(long roundTrips, long windowNs, long[] samples)
    {
    }

    /** A session event heard by the watcher, and when. */
    private record Sighting(Object event, long atNs)
    {
    }

    /** Keeps one ball going between itself and the responder, and times every round trip. */
    private static final class Pinger implements Behavior
    {
        private static final int MAX_SAMPLES = 1 << 20;
        private final ActorRef<DemoEvents.Ping> target;
        private ActorRef<DemoEvents.Ping> self;
        private long[] samples = new long[4096];
        private int sampleCount;
        private long roundTrips;
        private long windowStartNs;
        private boolean measuring;
        private boolean stopped;

        Pinger(final ActorRef<DemoEvents.Ping> target)
        {
            this.target = target;
        }

        @Override
        public void receive(final ActorContext ctx, final Envelope envelope)
        {
            final Object event = envelope.event();
            if (event instanceof DemoEvents.Ping)
            {
                if (!stopped)
                {
                    final DemoEvents.Ping ball = (DemoEvents.Ping)event;
                    final long nowNs = System.nanoTime();
                    if (measuring)
                    {
                        record(nowNs - ball.sentNs());
                    }
                    ctx.send(target, new DemoEvents.Ping(ball.sequence() + 1, nowNs, self));
                }
                return;
            }
            final Object command = event;
            if (command == Command.START)
            {
                self = ActorRef.of(ctx.self());
                ctx.send(target, new DemoEvents.Ping(0, System.nanoTime(), self));
            }
            else if (command == Command.RESET)
            {
                sampleCount = 0;
                roundTrips = 0;
                windowStartNs = System.nanoTime();
                measuring = true;
            }
            else if (command == Command.STOP)
            {
                stopped = true;
                ctx.reply(new PingStats(roundTrips, System.nanoTime() - windowStartNs,
                    Arrays.copyOf(samples, sampleCount)));
            }
        }

        private void record(final long rttNs)
        {
            roundTrips++;
            if (sampleCount == samples.length && samples.length < MAX_SAMPLES)
            {
                samples = Arrays.copyOf(samples, samples.length * 2);
            }
            if (sampleCount < samples.length)
            {
                samples[sampleCount++] = rttNs;
            }
        }
    }

    /** Subscribes to a node's session and reports what it hears. */
    private static final class Watcher implements Behavior
    {
        private final int nodeId;
        private final BlockingQueue<Sighting> sightings;

        Watcher(final int nodeId, final BlockingQueue<Sighting> sightings)
        {
            this.nodeId = nodeId;
            this.sightings = sightings;
        }

        @Override
        public void receive(final ActorContext ctx, final Envelope envelope)
        {
            if (envelope.event() == Command.START)
            {
                ctx.subscribeToNode(nodeId);
            }
            else
            {
                sightings.add(new Sighting(envelope.event(), System.nanoTime()));
            }
        }
    }

    /** A step of the demo went wrong: the message says which and what was seen. */
    static final class DemoFailure extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        DemoFailure(final String message)
        {
            super(message);
        }
    }
}
