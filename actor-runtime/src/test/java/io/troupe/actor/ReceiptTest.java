package io.troupe.actor;

import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.testing.Await;
import io.troupe.actor.RemoteTransportTest.RecordingTransport;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import static io.troupe.actor.TestActors.USER_TYPE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The receipt of an envelope from the wire: the runtime settles it once it is done with the envelope, on every
 * path, so that the transport that received it acknowledges only what this node handled or reported.
 */
@Timeout(60)
class ReceiptTest
{
    private static final int NODE = 31;
    private static final int OTHER = 32;

    private ActorSystem system;

    @AfterEach
    void tearDown()
    {
        if (system != null)
        {
            system.close();
        }
    }

    private static Envelope fromTheWire(final ActorId to, final ActorId from, final int flags)
    {
        final byte[] bytes = CountingDecoder.ascii("x");
        final WirePayload payload = WirePayload.copyOf(USER_TYPE, new UnsafeBuffer(bytes), 0, bytes.length,
            new CountingDecoder(USER_TYPE));
        payload.awaitReceipt();
        return new Envelope(to, from, USER_TYPE, flags, 7L, payload, null);
    }

    @Test
    void settledOnlyOnceTheHandlerReturnedOrThrew() throws Exception
    {
        system = TestActors.start(NODE, 1);
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final ActorId slow = system.register((ctx, envelope) ->
        {
            entered.countDown();
            Await.latch(release, "the test releases the handler");
        });
        final Envelope envelope = fromTheWire(slow, ActorId.of(OTHER, 1, 1), Envelope.FLAG_TRACK_DELIVERY);
        ActorSystemSpi.of(system).send(envelope);
        Await.latch(entered, "the handler ran");
        assertThat(envelope.payload().isSettled()).as("handling, not handled").isFalse();
        release.countDown();
        Await.until(() -> envelope.payload().isSettled(), "settled after the handler returned");

        final ActorId failing = system.register((ctx, e) ->
        {
            throw new IllegalStateException("handler failure");
        });
        final Envelope failed = fromTheWire(failing, ActorId.of(OTHER, 1, 1), Envelope.FLAG_TRACK_DELIVERY);
        ActorSystemSpi.of(system).send(failed);
        Await.until(() -> failed.payload().isSettled(), "settled after the handler threw");
    }

    @Test
    void settledWhenItTakesTheNonDeliveryPathOrGoesToAnotherNode() throws Exception
    {
        system = TestActors.start(NODE, 1);
        final RecordingTransport transport = new RecordingTransport();
        ActorSystemSpi.of(system).attachRemote(transport);
        final ActorId nobody = ActorId.of(NODE, 999_999, 5);

        final Envelope tracked = fromTheWire(nobody, ActorId.of(OTHER, 1, 1), Envelope.FLAG_TRACK_DELIVERY);
        ActorSystemSpi.of(system).send(tracked);
        Await.until(() -> tracked.payload().isSettled(), "an unknown recipient: Undelivered sent");
        assertThat(Await.next(transport.sent).event()).isInstanceOf(Undelivered.class);

        final Envelope untracked = fromTheWire(nobody, ActorId.of(OTHER, 1, 1), 0);
        ActorSystemSpi.of(system).send(untracked);
        Await.until(() -> untracked.payload().isSettled(), "an unknown recipient, untracked: dropped");

        final Envelope fromOutside = fromTheWire(nobody, ActorId.NONE, Envelope.FLAG_TRACK_DELIVERY);
        ActorSystemSpi.of(system).send(fromOutside);
        Await.until(() -> fromOutside.payload().isSettled(), "nobody to tell: a dead letter");

        final Envelope forwarded = new Envelope(nobody, ActorId.of(OTHER, 1, 1), USER_TYPE,
            Envelope.FLAG_TRACK_DELIVERY | Envelope.FLAG_FORWARD_ON_NONDELIVERY, 7L,
            fromTheWire(nobody, ActorId.NONE, 0).payload(), ActorId.of(OTHER, 2, 2));
        ActorSystemSpi.of(system).send(forwarded);
        Await.until(() -> forwarded.payload().isSettled(), "forwarded to another node, whose transport took it");
    }

    @Test
    void settledWhenShutdownReportsItAndNeverWithoutAReceiptAsked() throws Exception
    {
        system = ActorSystem.start(TestActors.config(NODE).shutdownTimeout(Duration.ZERO)
            .pool(PoolConfig.named("x").threads(1)));
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final ActorId busy = system.register((ctx, envelope) ->
        {
            entered.countDown();
            Await.latch(release, "the test releases the handler");
        });
        final ActorId other = system.register((ctx, envelope) ->
        {
        });
        system.send(busy, "block the only thread");
        Await.latch(entered, "the thread is busy");
        final Envelope queued = fromTheWire(other, ActorId.of(OTHER, 1, 1), Envelope.FLAG_TRACK_DELIVERY);
        ActorSystemSpi.of(system).send(queued);
        final byte[] bytes = CountingDecoder.ascii("y");
        final WirePayload noReceipt = WirePayload.copyOf(USER_TYPE, new UnsafeBuffer(bytes), 0, bytes.length, null);
        final Envelope unasked = new Envelope(other, ActorId.NONE, USER_TYPE, 0, 0L, noReceipt, null);
        ActorSystemSpi.of(system).send(unasked);

        final Thread closer = new Thread(system::close);
        closer.start();
        Await.until(() -> !system.isRunning(), "shutting down");
        final Envelope refused = fromTheWire(other, ActorId.of(OTHER, 1, 1), Envelope.FLAG_TRACK_DELIVERY);
        assertThat(ActorSystemSpi.of(system).send(refused)).isFalse();
        assertThat(refused.payload().isSettled()).as("refused at the door: a dead letter").isTrue();
        // the handler stays stuck until close has returned: released any earlier, the worker could still handle
        // the queued events while the node drains, and the test would not be about what shutdown reports
        closer.join(Await.DEFAULT_TIMEOUT.toMillis());
        assertThat(closer.isAlive()).as("close returns while a handler is stuck").isFalse();
        assertThat(queued.payload().isSettled()).as("still queued at the deadline: reported").isTrue();
        assertThat(system.counters().dropped()).as("the untracked one behind it: dropped").isEqualTo(1);
        assertThat(unasked.payload().isSettled()).as("no receipt asked, none given").isFalse();
        release.countDown();
    }
}
