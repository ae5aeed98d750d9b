package io.troupe.actor;

import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.testing.Await;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import static io.troupe.actor.TestActors.USER_TYPE;
import static io.troupe.actor.TestActors.assertUndelivered;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Serialized envelopes in a running system: the recipient actor decodes the payload on its own thread, once;
 * routing and non-delivery never decode.
 */
@Timeout(60)
class LazyDecodeTest
{
    private static final int NODE = 21;

    private final CountingDecoder decoder = new CountingDecoder(USER_TYPE);
    private final CountingDecoder wrongType = new CountingDecoder(EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 99));
    private final BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
    private ActorSystem system;

    /**
     * What the recipient saw while handling one envelope.
     *
     * @param thread    the handling thread.
     * @param first     the first {@code event()}.
     * @param second    the second {@code event()}.
     * @param typed     {@code event(decoder)}.
     * @param wrongType the failure of {@code event(wrongType)}, or null if it did not fail.
     */
    record Seen(String thread, Object first, Object second, String typed, RuntimeException wrongType)
    {
    }

    @BeforeEach
    void setUp()
    {
        system = TestActors.start(NODE, 2);
    }

    @AfterEach
    void tearDown()
    {
        system.close();
    }

    @Test
    void theRecipientDecodesOnceOnItsOwnThread() throws Exception
    {
        final ActorId recipient = system.register((ctx, envelope) ->
        {
            final Object first = envelope.event();
            final Object second = envelope.event();
            final String typed = envelope.event(decoder);
            RuntimeException failure = null;
            try
            {
                envelope.event(wrongType);
            }
            catch (final RuntimeException ex)
            {
                failure = ex;
            }
            seen.add(new Seen(Thread.currentThread().getName(), first, second, typed, failure));
        });

        assertThat(ActorSystemSpi.of(system).send(serialized(recipient, ActorId.NONE, 0, "from the wire"))).isTrue();
        final Seen result = Await.next(seen);

        assertThat(result.first()).isEqualTo("from the wire");
        assertThat(result.second()).isSameAs(result.first());
        assertThat(result.typed()).isSameAs(result.first());
        assertThat(decoder.calls()).isEqualTo(1);
        assertThat(decoder.threads).containsExactly(result.thread());
        assertThat(result.thread()).as("an executor thread, not the sending test thread")
            .isNotEqualTo(Thread.currentThread().getName());
        assertThat(result.wrongType()).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("decoder for type 4096:99 (0x10000063) cannot decode an envelope of type 4096:7");
        assertThat(wrongType.calls()).isZero();
    }

    @Test
    void aMalformedPayloadFailsTheHandlerNotTheActor() throws Exception
    {
        final TestActors.Failures failures = new TestActors.Failures();
        system.close();
        system = ActorSystem.start(TestActors.config(NODE).pool(PoolConfig.named("x").threads(2))
            .failureHandler(failures));
        final TestActors.Recorder recorder = new TestActors.Recorder();
        final ActorId recipient = system.register((ctx, envelope) -> recorder.receive(ctx, new Envelope(
            envelope.recipient(), envelope.sender(), envelope.type(), 0, 0L, envelope.event(), null)));

        ActorSystemSpi.of(system).send(serialized(recipient, ActorId.NONE, 0, "!broken"));
        ActorSystemSpi.of(system).send(serialized(recipient, ActorId.NONE, 0, "fine"));

        final TestActors.Failure failure = Await.next(failures.received);
        assertThat(failure.actor()).isEqualTo(recipient);
        assertThat(failure.error()).isInstanceOf(MalformedEventException.class)
            .hasMessageContaining("malformed event of type 4096:7");
        assertThat(((MalformedEventException)failure.error()).typeId()).isEqualTo(USER_TYPE);
        assertThat(recorder.next().event()).as("the actor lives on").isEqualTo("fine");
    }

    @Test
    void anUndeliveredSerializedEventIsReportedWithoutDecoding() throws Exception
    {
        final TestActors.Probe probe = new TestActors.Probe();
        final ActorId probeId = system.register(probe);
        final ActorId nobody = ActorId.of(NODE, 987_654, 3_000);

        ActorSystemSpi.of(system).send(serialized(nobody, probeId, Envelope.FLAG_TRACK_DELIVERY, "lost"));

        assertUndelivered(probe.next(), probeId, nobody, USER_TYPE, 42L, UndeliveredReason.ACTOR_UNKNOWN);
        assertThat(decoder.calls()).isZero();
    }

    private Envelope serialized(final ActorId to, final ActorId from, final int flags, final String text)
    {
        final byte[] bytes = CountingDecoder.ascii(text);
        final WirePayload payload = WirePayload.copyOf(USER_TYPE, new UnsafeBuffer(bytes), 0, bytes.length, decoder);
        return new Envelope(to, from, USER_TYPE, flags, 42L, payload, null);
    }
}
