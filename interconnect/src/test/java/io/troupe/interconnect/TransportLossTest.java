package io.troupe.interconnect;

import io.troupe.actor.spi.ActorSystemSpi;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.NodeConnected;
import io.troupe.actor.NodeDisconnected;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredReason;
import io.troupe.testing.Await;
import org.agrona.CloseHelper;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node on an external media driver that stops: the node's Aeron client closes under the interconnect. The
 * interconnect must say so once, end its sessions as failed, fail sends fast, and close without touching the
 * closed client (whose counters are gone), instead of running on deaf, erroring every cycle.
 */
@Timeout(60)
class TransportLossTest
{
    private static final Duration CONNECT = Duration.ofSeconds(30);
    /**
     * Node 1's failure timeout, which also bounds how long its close lingers for acknowledgements: made slow, so that a
     * close that returns in seconds cannot have waited for them, however slow a loaded machine is at closing a node.
     */
    private static final Duration PATIENT = Duration.ofSeconds(20);
    /** How long the agent, cycling on, is watched for a second notice of the loss: the window is what is tested. */
    private static final Duration NO_SECOND_NOTICE = Duration.ofMillis(200);
    private TestCluster cluster;
    private MediaDriver driver;

    @AfterEach
    void tearDown()
    {
        if (cluster != null)
        {
            cluster.close();
        }
        CloseHelper.quietClose(driver);
    }

    @Test
    void whenTheExternalDriverStopsTheNodeHearsOnceItsSessionsEndSendsFailFastAndCloseReturns() throws Exception
    {
        cluster = TestCluster.of(2);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        final String dir = System.getProperty("java.io.tmpdir") + "/troupe-it-external-driver-" +
            ProcessHandle.current().pid() + "-" + System.nanoTime();
        driver = MediaDriver.launch(new MediaDriver.Context().aeronDirectoryName(dir)
            .threadingMode(ThreadingMode.SHARED)
            .sharedIdleStrategy(new BackoffIdleStrategy()).dirDeleteOnStart(true).dirDeleteOnShutdown(true));
        cluster.start(one, cluster.config(one).embeddedDriver(false).aeronDir(dir).failureTimeout(PATIENT));
        cluster.start(two, cluster.config(two));
        cluster.awaitConnected(CONNECT);
        assertThat(one.interconnect.transportLost()).isNull();

        final BlockingQueue<String> heard = new LinkedBlockingQueue<>();
        one.interconnect.onTransportLost(heard::add);
        final BlockingQueue<Envelope> events = new LinkedBlockingQueue<>();
        final ActorId watcher = one.system.register((ctx, envelope) ->
        {
            if ("watch".equals(envelope.event()))
            {
                ctx.subscribeToNode(2);
            }
            else
            {
                events.add(envelope);
            }
        });
        one.system.send(watcher, "watch");
        assertThat(Await.next(events).event()).isEqualTo(new NodeConnected(2));

        driver.close();

        final String why = Await.next(heard);
        assertThat(why).as("the owner hears that the transport is gone").contains("Aeron client has closed")
            .contains("no peer can be reached");
        assertThat(one.interconnect.transportLost()).isEqualTo(why);
        assertThat(Await.next(events).event()).as("the session ended as a failed peer's would")
            .isEqualTo(new NodeDisconnected(2));
        assertThat(one.interconnect.isConnected(2)).isFalse();

        ActorSystemSpi.of(one.system).send(
            new Envelope(ActorId.of(2, 1, 1), watcher, TestCluster.TEXT, Envelope.FLAG_TRACK_DELIVERY, 7L,
            "x", null));
        final Envelope notice = Await.next(events);
        assertThat(((Undelivered)notice.event()).reason()).as("a send to a peer fails fast")
            .isEqualTo(UndeliveredReason.DISCONNECTED);

        final BlockingQueue<String> late = new LinkedBlockingQueue<>();
        one.interconnect.onTransportLost(late::add);
        assertThat(late.poll()).as("a listener set after the loss hears at once").isEqualTo(why);
        Await.holdsFor(NO_SECOND_NOTICE, heard::isEmpty, "the agent keeps cycling, and tells the owner only once");

        Await.until(() -> !two.interconnect.isConnected(1), "node 2's detector sees node 1 go");

        final long closingNs = System.nanoTime();
        cluster.stop(one); // nothing of the closed client is touched: no exception, no wait for acknowledgements
        assertThat(Duration.ofNanos(System.nanoTime() - closingNs))
            .as("closed without lingering for acknowledgements (that would take the %s failure timeout)", PATIENT)
            .isLessThan(PATIENT.dividedBy(2));
    }
}
