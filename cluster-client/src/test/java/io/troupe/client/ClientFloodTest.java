package io.troupe.client;

import io.troupe.actor.ActorId;
import io.troupe.actor.ServiceId;
import io.troupe.node.Node;
import io.troupe.node.NodeConfigLoader;
import io.troupe.node.client.ClientCounter;
import io.troupe.node.local.LocalCluster;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client that offers ten times what the consumer behind a node can handle: the node stops reading it while its
 * credit account is in debt, so the client sees back pressure, the node holds a bounded amount, the consumer stays
 * busy, and every event the client's send took is handled.
 */
@Timeout(90)
class ClientFloodTest
{
    /** The consumer's cost per event: about 5,000 events a second. */
    private static final long WORK_NS = 200_000;
    private static final long CAPACITY_PER_SECOND = 1_000_000_000L / WORK_NS;
    private static final long THRESHOLD = 500;
    private static final Duration FLOOD = Duration.ofSeconds(3);
    /** The most events one message carries: an MTU of compact frames (about 22 bytes each for this event). */
    private static final long MESSAGE_EVENTS = 1408 / 20;

    @TempDir
    Path dir;
    private Node node;
    private TroupeClient client;

    @AfterEach
    void tearDown()
    {
        if (client != null)
        {
            client.close();
        }
        if (node != null)
        {
            node.close();
        }
    }

    @Test
    void tenTimesTheConsumersCapacityIsPushedBackAndNothingIsLost() throws Exception
    {
        final LocalCluster cluster = LocalCluster.create(dir, 1,
            TestEvents.clusterSettings("troupe.client.credit-threshold = " + THRESHOLD));
        node = Node.start(NodeConfigLoader.load(cluster.configFile(1), new Properties()), system -> { },
            TestEvents.codecs());
        final AtomicLong handled = new AtomicLong();
        final AtomicLong busyNs = new AtomicLong();
        final AtomicLong firstNs = new AtomicLong();
        final ActorId consumer = node.system().register((ctx, envelope) ->
        {
            final long start = System.nanoTime();
            firstNs.compareAndSet(0, start);
            envelope.event();
            while (System.nanoTime() - start < WORK_NS)
            {
                Thread.onSpinWait();
            }
            busyNs.addAndGet(System.nanoTime() - start);
            handled.incrementAndGet();
        });
        final ServiceId name = ServiceId.of(0, "consumer");
        node.registry().register(name, consumer);
        client = TroupeClient.connect(TestEvents.clientConfig(cluster, 1));

        // offer ten times the capacity, in a burst about every millisecond, paced by the clock
        final long offeredRate = 10 * CAPACITY_PER_SECOND;
        long accepted = 0;
        long refused = 0;
        long maxInFlight = 0;
        final long startNs = System.nanoTime();
        final long endNs = startNs + FLOOD.toNanos();
        final TestEvents.Greeting event = new TestEvents.Greeting("flood");
        long now;
        while ((now = System.nanoTime()) - endNs < 0)
        {
            final long due = (now - startNs) * offeredRate / 1_000_000_000L;
            while (accepted + refused < due)
            {
                if (client.send(name, event) == SendStatus.OK)
                {
                    accepted++;
                }
                else
                {
                    refused++;
                }
            }
            maxInFlight = Math.max(maxInFlight, node.clients().count(ClientCounter.EVENTS_IN) - handled.get());
            LockSupport.parkNanos(1_000_000);
        }
        final long floodEndNs = System.nanoTime();
        final double utilisation = (double)busyNs.get() / (floodEndNs - firstNs.get());
        final long offeredPerSecond = (accepted + refused) * 1_000_000_000L / FLOOD.toNanos();

        final long total = accepted;
        Await.until(() -> handled.get() == total, Duration.ofSeconds(60), () -> "every accepted event handled: " +
            handled.get() + " of " + total);
        assertThat(offeredPerSecond).as("offered").isGreaterThanOrEqualTo(9 * CAPACITY_PER_SECOND);
        assertThat(refused).as("the client saw back pressure").isPositive();
        assertThat(client.counters().backPressured()).isEqualTo(refused);
        assertThat(node.clients().count(ClientCounter.THROTTLED)).as("the node stopped reading").isPositive();
        assertThat(maxInFlight).as("what the node held at most: the threshold and one message's events")
            .isLessThanOrEqualTo(THRESHOLD + MESSAGE_EVENTS);
        assertThat(utilisation).as("the consumer was kept busy").isGreaterThanOrEqualTo(0.9);
        assertThat(node.clients().count(ClientCounter.EVENTS_IN)).isEqualTo(accepted);
        assertThat(node.clients().count(ClientCounter.NOTICES_OUT)).isZero();
        assertThat(client.counters().undelivered()).isZero();
    }

    @Test
    void aSendWithATimeoutWaitsThatLongForRoomThenSaysBackPressured() throws Exception
    {
        final LocalCluster cluster = LocalCluster.create(dir, 1,
            TestEvents.clusterSettings("troupe.client.credit-threshold = 10"));
        node = Node.start(NodeConfigLoader.load(cluster.configFile(1), new Properties()), system -> { },
            TestEvents.codecs());
        final CountDownLatch release = new CountDownLatch(1);
        final ActorId stuck = node.system().register((ctx, envelope) ->
        {
            try
            {
                release.await(); // holds its events, so the client's account stays in debt
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        });
        node.registry().register(ServiceId.of(0, "stuck"), stuck);
        client = TroupeClient.connect(TestEvents.clientConfig(cluster, 1).sendBufferBytes(64 * 1024)
            .sendTimeout(Duration.ofMillis(300)));
        final TestEvents.Greeting event = new TestEvents.Greeting("fill");
        try
        {
            long sent = 0;
            SendStatus status;
            long refusedAfterNs = 0;
            while (true)
            {
                final long start = System.nanoTime();
                status = client.send(ServiceId.of(0, "stuck"), event);
                if (status != SendStatus.OK)
                {
                    refusedAfterNs = System.nanoTime() - start;
                    break;
                }
                sent++;
                assertThat(sent).as("the buffers must fill").isLessThan(1_000_000);
            }
            assertThat(status).isEqualTo(SendStatus.BACK_PRESSURED);
            assertThat(Duration.ofNanos(refusedAfterNs)).as("it waited for room first")
                .isGreaterThanOrEqualTo(Duration.ofMillis(250)).isLessThan(Duration.ofSeconds(5));
        }
        finally
        {
            release.countDown();
        }
    }
}
