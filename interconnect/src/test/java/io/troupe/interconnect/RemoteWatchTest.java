package io.troupe.interconnect;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import io.troupe.actor.Terminated;
import io.troupe.actor.TerminationReason;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Death watch across two nodes over real Aeron on 127.0.0.1: the watched actor passing away, an actor that is not
 * there, an unwatch, and the watched node shutting down, or being killed and coming back as a new incarnation. Each
 * watch ends with exactly one {@link Terminated}.
 */
@Timeout(120)
class RemoteWatchTest
{
    private static final Duration CONNECT = Duration.ofSeconds(30);
    private static final Duration QUIET = Duration.ofMillis(300);
    private TestCluster cluster;

    @AfterEach
    void tearDown()
    {
        if (cluster != null)
        {
            cluster.close();
        }
    }

    /** Watches the ids it is sent, unwatches on an Unwatch, and records every other event, decoded. */
    private static final class Watcher implements Behavior
    {
        final BlockingQueue<Object> got = new LinkedBlockingQueue<>();

        @Override
        public void receive(final ActorContext ctx, final Envelope envelope)
        {
            final Object event = envelope.event();
            if (event instanceof ActorId target)
            {
                ctx.watch(target);
                got.add("watching " + target);
            }
            else if (event instanceof Unwatch unwatch)
            {
                ctx.unwatch(unwatch.target());
                got.add("unwatched");
            }
            else
            {
                got.add(event);
            }
        }
    }

    record Unwatch(ActorId target)
    {
    }

    /** On node 2: says goodbye to whoever sent "die" (a text event), then passes away. */
    private static ActorId mortal(final TestCluster.Node node)
    {
        return node.system.register((ctx, envelope) ->
        {
            if ("die".equals(envelope.event()))
            {
                ctx.send(envelope.sender(), "last words", TestCluster.TEXT, 0, 0L);
                ctx.passAway();
            }
        });
    }

    private static ActorId remote(final ActorId id, final int node)
    {
        return id.onNode(node);
    }

    /** A watcher on node 1 that watches a new mortal of node 2, once node 2 holds the watch; the mortal's id. */
    private static ActorId watchedMortal(final TestCluster.Node one, final TestCluster.Node two, final Watcher watcher)
        throws InterruptedException
    {
        final ActorId target = remote(mortal(two), 2);
        one.system.send(one.system.register(watcher), target);
        assertThat(Await.next(watcher.got)).isEqualTo("watching " + target);
        Await.until(() -> watchersAt(two) == 1, CONNECT, "node 2 holds the watch");
        return target;
    }

    @Test
    void aRemoteActorsPassingAnActorThatIsNotThereAndAnUnwatchEachEndAsPekkoWouldHaveIt() throws Exception
    {
        cluster = TestCluster.of(2).startAll();
        cluster.awaitConnected(CONNECT);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        final Watcher watcher = new Watcher();
        final ActorId watcherId = one.system.register(watcher);

        final ActorId target = remote(mortal(two), 2);
        one.system.send(watcherId, target);
        assertThat(Await.next(watcher.got)).isEqualTo("watching " + target);
        one.system.send(watcherId, target); // twice: still one Terminated
        assertThat(Await.next(watcher.got)).isEqualTo("watching " + target);
        // the request is handled on node 2 before "die" only if it got there first: wait for node 2 to hold it
        Await.until(() -> watchersAt(two) == 1, CONNECT, "node 2 holds the watch");
        two.system.send(target, "die", TestCluster.TEXT, 0, 0L);
        final long diedAt = System.nanoTime();
        // "die" came from outside: the last words go to nobody; the Terminated comes to the watcher
        assertThat(Await.next(watcher.got)).isEqualTo(new Terminated(target, TerminationReason.PASSED_AWAY));
        System.out.printf("remote Terminated (passed away) after %.2f ms%n", (System.nanoTime() - diedAt) / 1e6);
        assertNothing(watcher.got);

        final ActorId never = ActorId.of(2, target.localId() + 1_000_000, target.hint());
        one.system.send(watcherId, never);
        assertThat(Await.next(watcher.got)).isEqualTo("watching " + never);
        assertThat(Await.next(watcher.got)).isEqualTo(new Terminated(never, TerminationReason.NOT_ALIVE));

        final ActorId other = remote(mortal(two), 2);
        one.system.send(watcherId, other);
        assertThat(Await.next(watcher.got)).isEqualTo("watching " + other);
        one.system.send(watcherId, new Unwatch(other));
        assertThat(Await.next(watcher.got)).isEqualTo("unwatched");
        two.system.send(other, "die", TestCluster.TEXT, 0, 0L);
        assertNothing(watcher.got);
        assertThat(cluster.handlerFailures()).isZero();
    }

    @Test
    void aNodeThatShutsDownEndsTheWatchesOfItsActorsAtOnce() throws Exception
    {
        cluster = TestCluster.of(2);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        // a slow failure detector: a Terminated within seconds comes from the goodbye, not from a timeout
        cluster.start(one, cluster.config(one).failureTimeout(Duration.ofSeconds(20)));
        cluster.start(two, cluster.config(two));
        cluster.awaitConnected(CONNECT);
        final Watcher watcher = new Watcher();
        final ActorId target = watchedMortal(one, two, watcher);

        final long stoppedAt = System.nanoTime();
        cluster.stop(two);
        assertThat(watcher.got.poll(10, TimeUnit.SECONDS))
            .isEqualTo(new Terminated(target, TerminationReason.NODE_STOPPED));
        System.out.printf("Terminated on a node's shutdown after %.1f ms%n", (System.nanoTime() - stoppedAt) / 1e6);
        assertNothing(watcher.got);
    }

    @Test
    void aNodeKilledAndRestartedEndsTheWatchesOfItsOldIncarnationsActors() throws Exception
    {
        cluster = TestCluster.of(2).startAll();
        cluster.awaitConnected(CONNECT);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        final Watcher watcher = new Watcher();
        final ActorId target = watchedMortal(one, two, watcher);

        two.interconnect.kill(); // no goodbye: node 1 finds out from the detector, then from the new handshake
        two.system.close();
        two.system = null;
        assertNothing(watcher.got); // a session that is down is not a death
        final long restartedAt = System.nanoTime();
        cluster.start(two, cluster.config(two));
        assertThat(watcher.got.poll(CONNECT.toSeconds(), TimeUnit.SECONDS))
            .isEqualTo(new Terminated(target, TerminationReason.NODE_RESTARTED));
        System.out.printf("Terminated on a restart after %.1f ms%n", (System.nanoTime() - restartedAt) / 1e6);
        assertNothing(watcher.got);
    }

    /** Remote watchers node 2's actors hold, as node 2 counts them. */
    private static long watchersAt(final TestCluster.Node node)
    {
        return node.system.counters().watchersHeld();
    }

    private static void assertNothing(final BlockingQueue<Object> queue) throws InterruptedException
    {
        assertThat(queue.poll(QUIET.toMillis(), TimeUnit.MILLISECONDS)).as("nothing more").isNull();
    }
}
