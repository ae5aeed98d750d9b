package io.troupe.actor;

import io.troupe.actor.spi.RemoteTransport;
import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import static io.troupe.actor.TestActors.USER_TYPE;
import static io.troupe.actor.TestActors.assertUndelivered;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * How the router hands envelopes for other nodes to an attached {@link RemoteTransport}, and what happens
 * without one. The transport here is a recording stand-in; the interconnect's own tests use real Aeron.
 */
@Timeout(60)
class RemoteTransportTest
{
    private static final int NODE = 3;
    private static final int OTHER = 4;

    private ActorSystem system;

    @AfterEach
    void tearDown()
    {
        if (system != null)
        {
            system.close();
        }
    }

    /** Records what it is given and answers with a scripted reason. */
    static final class RecordingTransport implements RemoteTransport
    {
        final BlockingQueue<Envelope> sent = new LinkedBlockingQueue<>();
        final BlockingQueue<String> subscriptions = new LinkedBlockingQueue<>();
        volatile UndeliveredReason answer;

        @Override
        public UndeliveredReason send(final Envelope envelope)
        {
            // read the answer before the test can see the envelope: a test that takes it and then changes the
            // answer for the next send must not change this one's
            final UndeliveredReason reason = answer;
            sent.add(envelope);
            return reason;
        }

        @Override
        public void subscribe(final int nodeId, final ActorId subscriber)
        {
            subscriptions.add("+" + nodeId + " " + subscriber);
        }

        @Override
        public void unsubscribe(final int nodeId, final ActorId subscriber)
        {
            subscriptions.add("-" + nodeId + " " + subscriber);
        }
    }

    @Test
    void withoutATransportEveryOtherNodeIsDisconnected() throws Exception
    {
        system = TestActors.start(NODE, 2);
        final TestActors.Probe probe = new TestActors.Probe();
        final ActorId sender = system.register(probe);
        final ActorId remote = ActorId.of(OTHER, 10, 1);

        system.send(sender, TestActors.Send.tracked(remote, "x", 5L));

        assertUndelivered(probe.next(), sender, remote, USER_TYPE, 5L, UndeliveredReason.DISCONNECTED);
        assertThat(ActorSystemSpi.of(system).remote()).isNull();
    }

    @Test
    void actorsAndServicesOfOtherNodesGoToTheTransportAndRefusalsComeBackAsUndelivered() throws Exception
    {
        system = TestActors.start(NODE, 2);
        final RecordingTransport transport = new RecordingTransport();
        ActorSystemSpi.of(system).attachRemote(transport);
        final TestActors.Probe probe = new TestActors.Probe();
        final ActorId sender = system.register(probe);
        final ActorId remoteActor = ActorId.of(OTHER, 10, 1);
        final ServiceId remoteService = ServiceId.of(OTHER, "pricing");

        system.send(sender, TestActors.Send.tracked(remoteActor, "a", 1L));
        system.send(sender, TestActors.Send.tracked(remoteService, "b", 2L));
        final Envelope first = Await.next(transport.sent);
        final Envelope second = Await.next(transport.sent);
        assertThat(first.recipient()).isEqualTo(remoteActor);
        assertThat(first.sender()).isEqualTo(sender);
        assertThat(second.recipient()).as("a remote service is resolved by its own node").isEqualTo(remoteService);

        transport.answer = UndeliveredReason.SHED;
        system.send(sender, TestActors.Send.tracked(remoteActor, "c", 3L));
        Await.next(transport.sent);
        assertUndelivered(probe.next(), sender, remoteActor, USER_TYPE, 3L, UndeliveredReason.SHED);

        // local sends never reach the transport
        system.send(sender, TestActors.Send.tracked(ActorId.of(NODE, 999, 77), "d", 4L));
        assertThat(probe.next().event()).isInstanceOf(Undelivered.class);
        assertThat(transport.sent).isEmpty();
    }

    @Test
    void theSubscribeOnSessionFlagSubscribesTheSenderAndSubscribeToNodeGoesToTheTransport() throws Exception
    {
        system = TestActors.start(NODE, 2);
        final RecordingTransport transport = new RecordingTransport();
        ActorSystemSpi.of(system).attachRemote(transport);
        final TestActors.Probe probe = new TestActors.Probe();
        final ActorId sender = system.register(probe);

        system.send(sender, new TestActors.Send(ActorId.of(OTHER, 1, 1), "x", USER_TYPE,
            Envelope.FLAG_SUBSCRIBE_ON_SESSION, 0L, null, false));
        assertThat(Await.next(transport.subscriptions)).isEqualTo("+" + OTHER + " " + sender);

        final ActorId subscriber = system.register((ctx, envelope) ->
        {
            if ("sub".equals(envelope.event()))
            {
                ctx.subscribeToNode(OTHER);
            }
            else
            {
                ctx.unsubscribeFromNode(OTHER);
            }
        });
        system.send(subscriber, "sub");
        assertThat(Await.next(transport.subscriptions)).isEqualTo("+" + OTHER + " " + subscriber);
        system.send(subscriber, "unsub");
        assertThat(Await.next(transport.subscriptions)).isEqualTo("-" + OTHER + " " + subscriber);
    }

    @Test
    void withoutATransportASubscriberHearsAtOnceThatTheNodeIsDisconnected() throws Exception
    {
        system = TestActors.start(NODE, 2);
        final BlockingQueue<Object> events = new LinkedBlockingQueue<>();
        final ActorId subscriber = system.register((ctx, envelope) ->
        {
            if ("sub".equals(envelope.event()))
            {
                ctx.subscribeToNode(OTHER);
            }
            else
            {
                events.add(envelope.event());
            }
        });
        system.send(subscriber, "sub");
        assertThat(Await.next(events)).isEqualTo(new NodeDisconnected(OTHER));
    }

    @Test
    void onlyOneTransportAtATime()
    {
        system = TestActors.start(NODE, 1);
        final RecordingTransport one = new RecordingTransport();
        ActorSystemSpi.of(system).attachRemote(one);
        assertThatThrownBy(() -> ActorSystemSpi.of(system).attachRemote(new RecordingTransport()))
            .isInstanceOf(IllegalStateException.class);
        ActorSystemSpi.of(system).detachRemote(new RecordingTransport()); // not attached: no-op
        assertThat(ActorSystemSpi.of(system).remote()).isSameAs(one);
        ActorSystemSpi.of(system).detachRemote(one);
        assertThat(ActorSystemSpi.of(system).remote()).isNull();
        assertThat(system.isLocalNode(NODE)).isTrue();
        assertThat(system.isLocalNode(0)).isTrue();
        assertThat(system.isLocalNode(OTHER)).isFalse();
    }
}
