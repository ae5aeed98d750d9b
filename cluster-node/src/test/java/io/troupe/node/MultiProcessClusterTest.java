package io.troupe.node;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import io.troupe.actor.NodeConnected;
import io.troupe.actor.NodeDisconnected;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredReason;
import io.troupe.interconnect.FrameRejection;
import io.troupe.interconnect.PeerCounters;
import io.troupe.node.counters.CountersFileReader;
import io.troupe.node.local.LocalCluster;
import io.troupe.node.local.NodeProcess;
import io.troupe.testing.Await;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three nodes on 127.0.0.1 with real Aeron, the node under test in a process of its own (what it is tested
 * for, a SIGKILL or a SIGTERM, is about its process), the observers in this JVM.
 */
@Timeout(90)
class MultiProcessClusterTest
{
    private static final Duration STARTUP = Duration.ofSeconds(30);
    /** How long node 3 stays stopped: well past the failure timeout (1.5 s), short of Aeron's 5 s timeouts. */
    private static final Duration PAUSE = Duration.ofSeconds(4);
    /** How often it is stopped and resumed in one test: the one-sided session showed in 3 of 3 tries, each. */
    private static final int PAUSE_CYCLES = 2;
    /** How soon after a resume (see the test) node 3 must be back at nodes 1 and 2 and answer them. */
    private static final Duration BACK_WITHIN = Duration.ofSeconds(1);
    /** How long after a resume the sessions must stay up, with no other session ended. */
    private static final Duration STAYS_UP_FOR = Duration.ofSeconds(2);

    @TempDir
    Path dir;

    private LocalCluster cluster;
    private final List<Node> nodes = new ArrayList<>();

    @AfterEach
    void tearDown()
    {
        for (final Node node : nodes)
        {
            node.close();
        }
        if (cluster != null)
        {
            cluster.close();
        }
    }

    private Node startHere(final int nodeId)
    {
        final Node node = Node.start(NodeConfigLoader.load(cluster.configFile(nodeId), new Properties()),
            TestEvents.NOTE_CODEC);
        nodes.add(node);
        return node;
    }

    private NodeProcess startTestNode(final int nodeId, final Path received)
    {
        return cluster.start(nodeId, TestNodeMain.class.getName(), List.of("--received", received.toString(),
            "--config", cluster.configFile(nodeId).toString()));
    }

    @Test
    void aKilledNodeIsDownAfterTheDetectorTimeoutEveryTrackedEventIsAccountedForOnceAndItsRestartTalksAgain()
        throws Exception
    {
        // the default failure detector: heartbeats every 100 ms, down after 1.5 s
        cluster = LocalCluster.create(dir, 3);
        final Path received = dir.resolve("received-by-2");
        final NodeProcess two = startTestNode(2, received);
        final Node one = startHere(1);
        final Node three = startHere(3);
        await(() -> one.interconnect().isConnected(2) && one.interconnect().isConnected(3) &&
            three.interconnect().isConnected(2), STARTUP, "sessions up", two);
        final long firstIncarnation = peer(one, 2).incarnation();

        final Sender sender = new Sender(TestNodeMain.SINK.onNode(2), 2);
        final ActorId senderId = one.system().register(sender);
        one.system().send(senderId, Sender.START);
        assertThat(sender.sessions.poll(10, TimeUnit.SECONDS).event()).isInstanceOf(NodeConnected.class);
        await(() -> size(received) >= 1_000 * Long.BYTES, STARTUP, "node 2 received 1,000 events", two);

        final long killedNs = System.nanoTime();
        sender.killedAt(killedNs);
        two.kill();
        // a host stalled for longer than the failure timeout makes sessions flap before the kill: skip that
        final Sighting down = sender.nextAfter(killedNs, NodeDisconnected.class, Duration.ofSeconds(10));
        assertThat(down).as("declared down").isNotNull();
        final Duration downAfter = Duration.ofNanos(down.atNs() - killedNs);
        // the detector's timeout is 1.5 s; a loaded 2-core machine adds its agents' lateness, seconds at worst
        assertThat(downAfter).as("declared down by the detector, about 1.5 s after the SIGKILL")
            .isGreaterThanOrEqualTo(Duration.ofMillis(1_000)).isLessThan(Duration.ofSeconds(6));
        assertThat(two.awaitExit(Duration.ofSeconds(10))).as("killed").isNotNull();

        // every tracked event the sender sent ends once: in node 2's file, or as one Undelivered (unsure if both)
        final long sent = sender.stopAndCount();
        awaitAccounted(sender, received, sent);
        final List<Long> delivered = cookies(received);
        final Set<Long> deliveredOnce = new HashSet<>(delivered);
        assertThat(deliveredOnce).as("delivered at most once").hasSize(delivered.size());
        assertThat(sender.duplicateNotices.get()).as("no event reported undelivered twice").isZero();
        assertThat(sender.outOfRange.get()).as("no notice for an event never sent").isZero();
        for (final Map.Entry<Long, Undelivered> notice : sender.undelivered.entrySet())
        {
            assertThat(notice.getValue().reason()).isEqualTo(UndeliveredReason.DISCONNECTED);
            if (deliveredOnce.contains(notice.getKey()))
            {
                assertThat(notice.getValue().unsure()).as("delivered and reported undelivered: only if unsure")
                    .isTrue();
            }
        }
        assertThat(delivered.size()).as("delivered before the kill").isGreaterThanOrEqualTo(1_000);
        assertThat(sender.undelivered).as("some were in flight or sent while node 2 was down").isNotEmpty();
        final long unsure = sender.undelivered.values().stream().filter(Undelivered::unsure).count();
        final long both = sender.undelivered.keySet().stream().filter(deliveredOnce::contains).count();
        System.out.printf("SIGKILL of node 2: NodeDisconnected after %d ms; %,d tracked events sent: %,d delivered, " +
            "%,d Undelivered (%,d unsure, %,d of them delivered after all)%n", downAfter.toMillis(), sent,
            delivered.size(), sender.undelivered.size(), unsure, both);

        // node 2 comes back with a new incarnation, and traffic resumes (its Aeron dir, left by the kill, is reclaimed)
        final Path receivedAgain = dir.resolve("received-by-2-again");
        final long restartNs = System.nanoTime();
        final NodeProcess twoAgain = startTestNode(2, receivedAgain);
        final Sighting up = sender.nextAfter(restartNs, NodeConnected.class, STARTUP);
        assertThat(up).as("node 2 is back: " + twoAgain.logTail(5)).isNotNull();
        assertThat(peer(one, 2).incarnation()).isNotEqualTo(firstIncarnation);
        final Object echo = one.system().ask(TestEvents.ECHO.onNode(2), new TestEvents.Note("again"), TestEvents.NOTE,
            Duration.ofSeconds(30)).get(30, TimeUnit.SECONDS);
        assertThat(echo).isEqualTo(new TestEvents.Note("echo: again"));
        one.system().send(TestNodeMain.SINK.onNode(2), new TestEvents.Note("last"), TestEvents.NOTE, 0, 4242L);
        await(() -> cookies(receivedAgain).contains(4242L), Duration.ofSeconds(10), "an event reached node 2 again",
            twoAgain);
    }

    @Test
    void aSecondNodeOnARunningNodesDataDirectoryFailsAtOnceNamingItsPidAndLeavesItsFilesAlone() throws Exception
    {
        cluster = LocalCluster.create(dir, 2);
        final NodeProcess one = cluster.start(1);
        final NodeConfig config = NodeConfigLoader.load(cluster.configFile(1), new Properties());
        await(() -> logContains(one, "troupe node 1 is up"), STARTUP, "node 1 up", one);
        final long incarnation = CountersFileReader.open(config.dataDir()).incarnation();

        final long startNs = System.nanoTime();
        Assertions.assertThatThrownBy(() -> startHere(1))
            .isInstanceOf(NodeStartException.class)
            .hasMessageContaining("troupe.data-dir = " + config.dataDir() + " is in use by another node (pid " +
                one.pid() + ")");
        assertThat(Duration.ofNanos(System.nanoTime() - startNs))
            .as("at once, not after a wait for Chronicle's file lock")
            .isLessThan(Duration.ofSeconds(5));
        assertThat(CountersFileReader.open(config.dataDir()).incarnation())
            .as("the running node's counters file is still its own").isEqualTo(incarnation);
        assertThat(one.isAlive()).isTrue();

        one.terminate();
        assertThat(one.awaitExit(Duration.ofSeconds(20))).as("exit code; log:%n%s", one.logTail(10)).isEqualTo(0);
        final Node again = startHere(1);
        assertThat(again.system().isRunning()).as("the directory is free once its node is gone").isTrue();
    }

    private static boolean logContains(final NodeProcess process, final String text)
    {
        try
        {
            return Files.exists(process.logFile()) && Files.readString(process.logFile()).contains(text);
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    @Test
    void aNodeStoppedWithSigtermSaysGoodbyeSoTheOthersSeeItGoAtOnceAndExitsWith0WithoutItsAeronDir() throws Exception
    {
        // the failure detector made slow (20 s): seen in seconds, node 3 can only have been seen to go by its goodbye,
        // however slow a loaded machine is at stopping a JVM
        cluster = LocalCluster.create(dir, 3, "troupe.failure-detector.timeout = 20s");
        final NodeProcess three = cluster.start(3);
        final Node one = startHere(1);
        final Node two = startHere(2);
        await(() -> one.interconnect().isConnected(3) && two.interconnect().isConnected(3) &&
            one.interconnect().isConnected(2), STARTUP, "sessions up", three);
        final Path aeronDir = cluster.aeronDir(3);
        assertThat(aeronDir).exists();
        final BlockingQueue<Long> goneAtOne = watch(one, 3);
        final BlockingQueue<Long> goneAtTwo = watch(two, 3);

        final long signalNs = System.nanoTime();
        three.terminate();

        final Long oneSawNs = goneAtOne.poll(30, TimeUnit.SECONDS);
        final Long twoSawNs = goneAtTwo.poll(30, TimeUnit.SECONDS);
        assertThat(oneSawNs).as("node 1 saw node 3 go").isNotNull();
        assertThat(twoSawNs).as("node 2 saw node 3 go").isNotNull();
        assertThat(Duration.ofNanos(oneSawNs - signalNs))
            .as("by the goodbye, long before the detector; node 3's log:%n%s", three.logTail(40))
            .isLessThan(Duration.ofSeconds(10));
        assertThat(Duration.ofNanos(twoSawNs - signalNs)).as("by the goodbye, long before the detector")
            .isLessThan(Duration.ofSeconds(10));
        assertThat(three.awaitExit(Duration.ofSeconds(20))).as("exit code; log:%n%s", three.logTail(10)).isEqualTo(0);
        assertThat(aeronDir).doesNotExist();
        assertThat(Files.readString(three.logFile())).contains("troupe node 3 stopped in");
        assertThat(peer(one, 3).lostUnsure()).isZero();
    }

    /**
     * SIGSTOP of node 3 for 4 s: nodes 1 and 2 end their sessions with it after the failure timeout (1.5 s), and keep
     * sending HELLOs that pile up in its socket and term buffers. After SIGCONT, node 3 reads that backlog; stale
     * handshake steps must be ignored, and each session must be up on both sides, and carry requests, within about
     * a round trip, and then stay up. (Before the handshake rework, nodes 1 and 2 declared the session up within
     * milliseconds while node 3 refused them, "its proof of the cluster secret is wrong", leaving a one-sided
     * session until 1.5 s of silence ended it; it showed in 3 of 3 tries, hence the 3 cycles.)
     *
     * <p>The bound, {@link #BACK_WITHIN}: on loopback a handshake (HELLO, WELCOME, CONFIRM, first sealed frame) takes
     * well under 10 ms; the rest is scheduling on a 2-core host running three JVMs (one just resumed, its JIT and
     * GC catching up). 1 s leaves room for that and stays below the 1.5 s a one-sided session lasted, during which
     * no echo could come back. Observed on a 2-core host, 7 runs of 3 cycles: nodes 1 and 2 see node 3 up 6 to 85 ms
     * after SIGCONT (mostly under 25 ms; the first cycle of a run is the slowest), both echoes are back 9 to 94 ms
     * after it, at most 16 ms after the first node saw it up, and node 3's log has its side up 1 to 3 ms before
     * each of them; the test takes about 20 s.
     */
    @Test
    void aPausedPeerIsBackOnBothSidesWithinARoundTripOfItsResume() throws Exception
    {
        // the default failure detector: heartbeats every 100 ms, down after 1.5 s
        cluster = LocalCluster.create(dir, 3);
        final NodeProcess three = startTestNode(3, dir.resolve("received-by-3")); // with the echo service
        final Node one = startHere(1);
        final Node two = startHere(2);
        final Node[] observers = {one, two};
        await(() -> one.interconnect().isConnected(3) && two.interconnect().isConnected(3) &&
            one.interconnect().isConnected(2) && two.interconnect().isConnected(1), STARTUP, "sessions up", three);
        for (final Node node : observers)
        {
            assertThat(echo(node, "hello", Duration.ofSeconds(10)).event())
                .isEqualTo(new TestEvents.Note("echo: hello"));
        }

        for (int cycle = 1; cycle <= PAUSE_CYCLES; cycle++)
        {
            final PeerCounters[] before = {peer(one, 3), peer(two, 3)};
            final long staleBefore = staleHandshakes(observers);
            final long stoppedNs = System.nanoTime();
            signal(three, "-STOP");
            final long downNs;
            try
            {
                await(() -> !one.interconnect().isConnected(3) && !two.interconnect().isConnected(3),
                    PAUSE.minusMillis(300), "nodes 1 and 2 see node 3 down while it is stopped (cycle " + cycle + ")",
                    three);
                downNs = System.nanoTime();
                Thread.sleep(Math.max(0,
                    TimeUnit.NANOSECONDS.toMillis(stoppedNs + PAUSE.toNanos() - System.nanoTime())));
            }
            finally
            {
                signal(three, "-CONT"); // whatever happened: never leave a stopped process behind
            }
            final long resumedNs = System.nanoTime();
            for (int i = 0; i < observers.length; i++)
            {
                assertThat(peer(observers[i], 3).sessionsDown())
                    .as("node %d ended the session with node 3 once (cycle %d)", observers[i].nodeId(), cycle)
                    .isEqualTo(before[i].sessionsDown() + 1);
            }

            // each observer asks node 3's echo service the moment it reports node 3 up again
            final long[] upNs = new long[observers.length];
            final List<CompletableFuture<Reply>> echoes = new ArrayList<>(List.of(new CompletableFuture<>(),
                new CompletableFuture<>()));
            final int thisCycle = cycle;
            await(() ->
            {
                for (int i = 0; i < observers.length; i++)
                {
                    if (upNs[i] == 0 && observers[i].interconnect().isConnected(3))
                    {
                        upNs[i] = System.nanoTime();
                        echoes.set(i, echoAsync(observers[i], "cycle " + thisCycle, BACK_WITHIN.multipliedBy(2)));
                    }
                }
                return upNs[0] != 0 && upNs[1] != 0;
            }, Duration.ofSeconds(10), "nodes 1 and 2 see node 3 up again after its resume (cycle " + cycle + ")",
                three);
            final long firstUpNs = Math.min(upNs[0], upNs[1]);
            final long[] echoNs = new long[observers.length];
            for (int i = 0; i < observers.length; i++)
            {
                final Reply reply = replyOf(echoes.get(i), "node " + observers[i].nodeId() + "'s echo through node 3 " +
                    "after the resume (cycle " + cycle + ", up after " + millis(upNs[i] - resumedNs) + " ms)", three);
                assertThat(reply.event()).isEqualTo(new TestEvents.Note("echo: cycle " + cycle));
                echoNs[i] = reply.atNs();
            }
            final long lastNs = Math.max(Math.max(upNs[0], upNs[1]), Math.max(echoNs[0], echoNs[1]));
            System.out.printf("SIGSTOP of node 3 for %d ms, cycle %d: down at nodes 1 and 2 after %d ms; after " +
                "SIGCONT, up at node 1 after %d ms, at node 2 after %d ms; echo via node 1 after %d ms, via node 2 " +
                "after %d ms; stale handshake steps ignored at nodes 1 and 2: %d%n", millis(resumedNs - stoppedNs),
                cycle, millis(downNs - stoppedNs), millis(upNs[0] - resumedNs), millis(upNs[1] - resumedNs),
                millis(echoNs[0] - resumedNs), millis(echoNs[1] - resumedNs), staleHandshakes(observers) - staleBefore);
            assertThat(Duration.ofNanos(firstUpNs - resumedNs)).as("node 3 back at node 1 or 2 within %s of SIGCONT " +
                "(cycle %d)", BACK_WITHIN, cycle).isLessThan(BACK_WITHIN);
            assertThat(Duration.ofNanos(lastNs - firstUpNs)).as("both nodes see node 3 up and get its echo within %s " +
                "of the first seeing it up (cycle %d)", BACK_WITHIN, cycle).isLessThan(BACK_WITHIN);

            assertNoFlapping(observers, before, three, cycle, resumedNs);
        }
        final String log = Files.readString(three.logFile());
        System.out.printf("node 3's sessions, from its log:%n%s",
            log.lines().filter(line -> line.contains("session with"))
                .map(line -> "    " + line + System.lineSeparator()).collect(Collectors.joining()));
        assertThat(log).as("node 3 refused no handshake").doesNotContain("refused the handshake");
    }

    /**
     * No flapping after a resume: until {@link #STAYS_UP_FOR} after it, the new sessions of node 3 with the observers
     * stay up and neither ends another one; and no handshake step was refused or failed the proof of the secret.
     */
    private static void assertNoFlapping(final Node[] observers, final PeerCounters[] before, final NodeProcess three,
        final int cycle, final long resumedNs)
    {
        Await.until(() ->
        {
            for (int i = 0; i < observers.length; i++)
            {
                final PeerCounters now = peer(observers[i], 3);
                if (!now.connected() || now.sessionsDown() != before[i].sessionsDown() + 1 ||
                    now.sessionsUp() != before[i].sessionsUp() + 1)
                {
                    throw new AssertionError("node " + observers[i].nodeId() + "'s session with node 3 did not " +
                        "stay up after the resume (cycle " + cycle + ", " + millis(System.nanoTime() - resumedNs) +
                        " ms after it): " + now + "; before the pause: " + before[i] + "; node 3's log:" +
                        System.lineSeparator() + three.logTail(20));
                }
            }
            return System.nanoTime() - (resumedNs + STAYS_UP_FOR.toNanos()) >= 0;
        }, STAYS_UP_FOR.plusSeconds(5), "2 s have passed since the resume");

        for (final Node node : observers)
        {
            assertThat(peer(node, 3).handshakesRefused()).as("handshakes refused between node %d and node 3 " +
                "(cycle %d)", node.nodeId(), cycle).isZero();
            assertThat(node.interconnect().counters().rejectedFrames(FrameRejection.BAD_PROOF)).as("steps with a " +
                "wrong proof of the secret at node %d (cycle %d)", node.nodeId(), cycle).isZero();
        }
    }

    // ------------------------------------------------------------------ helpers

    /** Sends a signal to a node's process with kill(1), e.g. {@code -STOP} or {@code -CONT}. */
    private static void signal(final NodeProcess process, final String signal) throws IOException, InterruptedException
    {
        final int exit = new ProcessBuilder("kill", signal, Long.toString(process.pid()))
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
        if (exit != 0)
        {
            throw new AssertionError("kill " + signal + " " + process + " exited with " + exit);
        }
    }

    /** A reply to an ask, and when it came. */
    private record Reply(Object event, long atNs)
    {
    }

    /** Asks node 3's echo service from a node; the reply's time is taken on the thread that completes the ask. */
    private static CompletableFuture<Reply> echoAsync(final Node node, final String text, final Duration timeout)
    {
        return node.system().ask(TestEvents.ECHO.onNode(3), new TestEvents.Note(text), TestEvents.NOTE, timeout)
            .thenApply(event -> new Reply(event, System.nanoTime()));
    }

    private static Reply echo(final Node node, final String text, final Duration timeout)
    {
        return replyOf(echoAsync(node, text, timeout), "node " + node.nodeId() + "'s echo through node 3", null);
    }

    /** The outcome of an ask, which times out by itself; fails saying why there is none, with the process's log. */
    private static Reply replyOf(final CompletableFuture<Reply> reply, final String what, final NodeProcess process)
    {
        try
        {
            return reply.get(30, TimeUnit.SECONDS);
        }
        catch (final ExecutionException | TimeoutException ex)
        {
            throw new AssertionError("no " + what + ": " + (ex instanceof ExecutionException ? ex.getCause() : ex) +
                (process == null ? "" : "; " + process + " log:" + System.lineSeparator() + process.logTail(20)), ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + what, ex);
        }
    }

    private static long staleHandshakes(final Node... nodes)
    {
        long stale = 0;
        for (final Node node : nodes)
        {
            stale += node.interconnect().counters().rejectedFrames(FrameRejection.STALE_HANDSHAKE);
        }
        return stale;
    }

    private static long millis(final long nanos)
    {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    /** Subscribes an actor to a node and returns when it hears NodeDisconnected. */
    private static BlockingQueue<Long> watch(final Node node, final int peer) throws InterruptedException
    {
        final BlockingQueue<Long> gone = new LinkedBlockingQueue<>();
        final BlockingQueue<Object> connected = new LinkedBlockingQueue<>();
        final ActorId watcher = node.system().register((ctx, envelope) ->
        {
            if ("watch".equals(envelope.event()))
            {
                ctx.subscribeToNode(peer);
            }
            else if (envelope.event() instanceof NodeDisconnected)
            {
                gone.add(System.nanoTime());
            }
            else
            {
                connected.add(envelope.event());
            }
        });
        node.system().send(watcher, "watch");
        assertThat(connected.poll(10, TimeUnit.SECONDS)).isEqualTo(new NodeConnected(peer));
        return gone;
    }

    private static PeerCounters peer(final Node node, final int peer)
    {
        for (final PeerCounters counters : node.interconnect().peerCounters())
        {
            if (counters.nodeId() == peer)
            {
                return counters;
            }
        }
        throw new AssertionError("node " + node.nodeId() + " has no peer " + peer);
    }

    /** Waits until every cookie sent is delivered or reported; else fails saying which are missing, and where. */
    private static void awaitAccounted(final Sender sender, final Path received, final long sent)
    {
        Await.until(() -> accountedFor(sender, received) == sent, Duration.ofSeconds(10), () ->
        {
            final Set<Long> delivered = new HashSet<>(cookies(received));
            final List<Long> missing = new ArrayList<>();
            for (long cookie = 0; cookie < sent; cookie++)
            {
                if (!delivered.contains(cookie) && !sender.undelivered.containsKey(cookie))
                {
                    missing.add(cookie);
                }
            }
            final long lastDelivered = delivered.stream().mapToLong(Long::longValue).max().orElse(-1);
            final long firstUnsure = sender.undelivered.entrySet().stream().filter(e -> e.getValue().unsure())
                .mapToLong(Map.Entry::getKey).min().orElse(-1);
            return "every event is accounted for: " + sent + " sent, " + delivered.size() + " delivered (last " +
                lastDelivered + "), " + sender.undelivered.size() + " undelivered (first unsure " + firstUnsure +
                "); " + missing.size() + " missing" + (missing.isEmpty() ? "" : ", from " + missing.get(0) + " to " +
                missing.get(missing.size() - 1));
        });
    }

    private static long accountedFor(final Sender sender, final Path received)
    {
        final Set<Long> all = new HashSet<>(cookies(received));
        all.addAll(sender.undelivered.keySet());
        return all.size();
    }

    private static long size(final Path file)
    {
        try
        {
            return Files.exists(file) ? Files.size(file) : 0;
        }
        catch (final IOException ex)
        {
            return 0;
        }
    }

    /** The cookies a test node's sink wrote, in order; a torn last record (never seen: one write each) is left out. */
    private static List<Long> cookies(final Path file)
    {
        final List<Long> cookies = new ArrayList<>();
        try
        {
            if (!Files.exists(file))
            {
                return cookies;
            }
            final ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file));
            while (bytes.remaining() >= Long.BYTES)
            {
                cookies.add(bytes.getLong());
            }
            return cookies;
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot read " + file, ex);
        }
    }

    /** Waits for a condition; gives up at once, with its log's tail, if the process (null: none) has exited. */
    private static void await(final BooleanSupplier condition, final Duration timeout, final String what,
        final NodeProcess process)
    {
        final Supplier<String> described = () -> what + (process == null ? "" : "; " + process + " log:" +
            System.lineSeparator() + process.logTail(20));
        Await.until(() ->
        {
            if (process != null && !process.isAlive())
            {
                throw new AssertionError("the process exited while waiting until " + described.get());
            }
            return condition.getAsBoolean();
        }, timeout, described);
    }

    /** A session event the sender heard, and when. */
    private record Sighting(Object event, long atNs)
    {
    }

    /**
     * Sends tracked events to a sink on another node, a batch every millisecond, until the node goes down;
     * records its session events and every {@link Undelivered} by cookie.
     */
    private static final class Sender implements Behavior
    {
        static final String START = "start";
        private static final String TICK = "tick";
        private static final int BATCH = 10;

        final BlockingQueue<Sighting> sessions = new LinkedBlockingQueue<>();
        final Map<Long, Undelivered> undelivered = new ConcurrentHashMap<>();
        final AtomicLong duplicateNotices = new AtomicLong();
        final AtomicLong outOfRange = new AtomicLong();
        private final ActorId sink;
        private final int nodeId;
        private final AtomicLong next = new AtomicLong();
        private volatile boolean sending = true;
        private volatile long killedNs;

        Sender(final ActorId sink, final int nodeId)
        {
            this.sink = sink;
            this.nodeId = nodeId;
        }

        /** From now on, the first NodeDisconnected stops the sending. */
        void killedAt(final long nowNs)
        {
            killedNs = nowNs;
        }

        /** The first session event of a kind seen at or after a time, waiting for it; null if none comes in time. */
        Sighting nextAfter(final long sinceNs, final Class<?> kind, final Duration timeout) throws InterruptedException
        {
            final long deadlineNs = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() - deadlineNs < 0)
            {
                final Sighting sighting = sessions.poll(10, TimeUnit.MILLISECONDS);
                if (sighting != null && sighting.atNs() - sinceNs >= 0 && kind.isInstance(sighting.event()))
                {
                    return sighting;
                }
            }
            return null;
        }

        /** Stops sending; returns how many events were sent. Safe once the node is down: nothing is sent then. */
        long stopAndCount()
        {
            sending = false;
            return next.get();
        }

        @Override
        public void receive(final ActorContext ctx, final Envelope envelope)
        {
            final Object event = envelope.event();
            if (event instanceof Undelivered notice)
            {
                if (envelope.cookie() >= next.get())
                {
                    outOfRange.incrementAndGet();
                }
                if (undelivered.put(envelope.cookie(), notice) != null)
                {
                    duplicateNotices.incrementAndGet();
                }
            }
            else if (event instanceof NodeDisconnected)
            {
                final long nowNs = System.nanoTime();
                if (killedNs != 0 && nowNs - killedNs >= 0)
                {
                    sending = false; // the rest of the events would all fail at once; enough have
                }
                sessions.add(new Sighting(event, nowNs));
            }
            else if (event instanceof NodeConnected)
            {
                sessions.add(new Sighting(event, System.nanoTime()));
            }
            else if (START.equals(event))
            {
                ctx.subscribeToNode(nodeId);
                ctx.schedule(Duration.ofMillis(1), TICK);
            }
            else if (TICK.equals(event) && sending)
            {
                for (int i = 0; i < BATCH; i++)
                {
                    final long cookie = next.getAndIncrement();
                    ctx.send(sink, new TestEvents.Note("#"), TestEvents.NOTE, Envelope.FLAG_TRACK_DELIVERY, cookie);
                }
                ctx.schedule(Duration.ofMillis(1), TICK);
            }
        }
    }
}
