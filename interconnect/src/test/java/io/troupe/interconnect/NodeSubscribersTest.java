package io.troupe.interconnect;

import io.troupe.actor.ActorId;
import io.troupe.actor.NodeDisconnected;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Actors watching a node: a watcher that is gone is forgotten at the next notice, the others are told. */
@Timeout(60)
class NodeSubscribersTest
{
    private static final Duration CONNECT = Duration.ofSeconds(15);
    private final TestCluster cluster = TestCluster.of(2);

    @AfterEach
    void tearDown()
    {
        cluster.close();
    }

    @Test
    void aWatcherThatIsGoneIsForgottenAtTheNextNoticeAndALiveOneIsTold() throws Exception
    {
        cluster.startAll().awaitConnected(CONNECT);
        final TestCluster.Node one = cluster.node(1);
        final BlockingQueue<Object> heard = new LinkedBlockingQueue<>();
        final ActorId live = one.system.register((ctx, envelope) ->
        {
            if ("watch".equals(envelope.event()))
            {
                ctx.subscribeToNode(2);
            }
            else
            {
                heard.add(envelope.event());
            }
        });
        final ActorId mortal = one.system.register((ctx, envelope) ->
        {
            if ("watch".equals(envelope.event()))
            {
                ctx.subscribeToNode(2);
            }
            else if ("die".equals(envelope.event()))
            {
                ctx.passAway();
            }
        });
        one.system.send(live, "watch");
        one.system.send(mortal, "watch");
        Await.until(() -> one.interconnect.peerCounters().get(0).subscribers() == 2, CONNECT, "two watchers");
        one.system.send(mortal, "die");

        cluster.stop(cluster.node(2));
        assertThat(heard.poll(10, TimeUnit.SECONDS)).as("the live watcher's first notice").isNotNull();
        Object notice;
        do
        {
            notice = heard.poll(10, TimeUnit.SECONDS);
        }
        while (notice != null && !(notice instanceof NodeDisconnected));
        assertThat(notice).isEqualTo(new NodeDisconnected(2));
        Await.until(() -> one.interconnect.peerCounters().get(0).subscribers() == 1, CONNECT,
            "the gone watcher forgotten");
        assertThat(one.interconnect.counters().subscriptionsRefused()).isZero();
    }
}
