package io.troupe.interconnect;

import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.Envelope;
import io.troupe.actor.PoolConfig;
import io.troupe.actor.WirePayload;
import io.troupe.testing.Await;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The ack stops short of the first tracked envelope the actor system is not done with. */
class ReceiptsTest
{
    private ActorSystem system;
    private ActorId sink;

    @BeforeEach
    void setUp()
    {
        system = ActorSystem.start(new ActorSystemConfig().nodeId(9).threadNamePrefix("receipts-")
            .pool(PoolConfig.named("default").threads(1)));
        sink = system.register((ctx, envelope) ->
        {
        });
    }

    @AfterEach
    void tearDown()
    {
        system.close();
    }

    private static WirePayload awaited()
    {
        final WirePayload payload = WirePayload.copyOf(1, new UnsafeBuffer(new byte[1]), 0, 1, null);
        payload.awaitReceipt();
        return payload;
    }

    /** Settles a payload the way the runtime does: an actor handles an envelope that carries it. */
    private void settle(final WirePayload payload)
    {
        ActorSystemSpi.of(system).send(new Envelope(sink, ActorId.NONE, 1, 0, 0L, payload, null));
        Await.until(payload::isSettled, "the sink handled the envelope and settled its payload");
    }

    @Test
    void withNothingUnsettledEverythingReceivedIsAcknowledged()
    {
        final Receipts receipts = new Receipts();
        assertThat(receipts.ackable(4_096)).isEqualTo(4_096);
    }

    @Test
    void theAckStopsWhereTheFirstUnsettledEnvelopeBeganAndMovesOnAsTheyAreSettledInOrder()
    {
        final Receipts receipts = new Receipts();
        final WirePayload first = awaited();
        final WirePayload second = awaited();
        receipts.add(64, first);
        receipts.add(192, second);

        assertThat(receipts.ackable(256)).isEqualTo(64);
        settle(second);
        assertThat(receipts.ackable(256)).as("the first still holds the ack back").isEqualTo(64);
        settle(first);
        assertThat(receipts.ackable(320)).isEqualTo(320);
        assertThat(receipts.size()).isZero();
    }

    @Test
    void itGrowsAndClearsWithTheSession()
    {
        final Receipts receipts = new Receipts();
        final List<WirePayload> payloads = new ArrayList<>();
        for (int i = 0; i < 200; i++)
        {
            final WirePayload payload = awaited();
            payloads.add(payload);
            receipts.add(32L * i, payload);
        }
        assertThat(receipts.size()).isEqualTo(200);
        assertThat(receipts.ackable(32L * 200)).isZero();
        receipts.clear();
        assertThat(receipts.size()).isZero();
        assertThat(receipts.ackable(96)).isEqualTo(96);
        receipts.add(96, payloads.get(0));
        assertThat(receipts.ackable(128)).isEqualTo(96);
    }
}
