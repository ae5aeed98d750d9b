package io.troupe.actor;

import io.troupe.memquota.HasMemoryCost;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static io.troupe.actor.TestActors.USER_TYPE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EnvelopeTest
{
    private static final ActorId TO = ActorId.of(0, 10L, 1);
    private static final ActorId FROM = ActorId.of(0, 11L, 2);
    private static final ActorId FORWARD = ActorId.of(0, 12L, 3);

    @Test
    void accessorsReturnTheConstructorArguments()
    {
        final Object event = new Object();
        final Envelope envelope = new Envelope(TO, FROM, 77, Envelope.FLAG_TRACK_DELIVERY, 99L, event, FORWARD);

        assertThat(envelope.recipient()).isSameAs(TO);
        assertThat(envelope.sender()).isSameAs(FROM);
        assertThat(envelope.type()).isEqualTo(77);
        assertThat(envelope.flags()).isEqualTo(Envelope.FLAG_TRACK_DELIVERY);
        assertThat(envelope.cookie()).isEqualTo(99L);
        assertThat(envelope.event()).isSameAs(event);
        assertThat(envelope.forwardTo()).isSameAs(FORWARD);
    }

    @Test
    void everyChannelRoundTrips()
    {
        for (int channel = 0; channel <= Envelope.MAX_CHANNEL; channel++)
        {
            final int flags = Envelope.withChannel(0, channel);

            assertThat(flags).isEqualTo(channel << 24);
            assertThat(envelope(flags).channel()).isEqualTo(channel);
        }
    }

    @Test
    void withChannelKeepsTheOtherFlags()
    {
        final int low = Envelope.FLAG_TRACK_DELIVERY | Envelope.FLAG_FORWARD_ON_NONDELIVERY | 0x00FF_FF00;

        final int flags = Envelope.withChannel(low, Envelope.MAX_CHANNEL);

        assertThat(flags & 0x00FF_FFFF).isEqualTo(low);
        assertThat(envelope(flags).channel()).isEqualTo(Envelope.MAX_CHANNEL);
        assertThat(envelope(flags).isTracked()).isTrue();
    }

    @Test
    void withChannelReplacesAnEarlierChannel()
    {
        final int flags = Envelope.withChannel(Envelope.withChannel(Envelope.FLAG_TRACK_DELIVERY, 0xFF), 0x12);

        assertThat(envelope(flags).channel()).isEqualTo(0x12);
        assertThat(flags).isEqualTo((0x12 << 24) | Envelope.FLAG_TRACK_DELIVERY);
        assertThat(Envelope.withChannel(flags, 0)).isEqualTo(Envelope.FLAG_TRACK_DELIVERY);
    }

    @Test
    void channelOutOfRangeIsRejected()
    {
        assertThatThrownBy(() -> Envelope.withChannel(0, -1))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("channel -1")
            .hasMessageContaining("0..255");
        assertThatThrownBy(() -> Envelope.withChannel(0, 256))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("channel 256");
    }

    @Test
    void isTrackedFollowsBitZero()
    {
        assertThat(envelope(0).isTracked()).isFalse();
        assertThat(envelope(Envelope.FLAG_TRACK_DELIVERY).isTracked()).isTrue();
        assertThat(envelope(Envelope.FLAG_FORWARD_ON_NONDELIVERY).isTracked()).isFalse();
        assertThat(envelope(Envelope.withChannel(0, 0xFF)).isTracked()).isFalse();
        assertThat(envelope(Envelope.withChannel(Envelope.FLAG_TRACK_DELIVERY, 1)).isTracked()).isTrue();
    }

    @Test
    void redirectTurnsTowardsTheForwardTargetOnce()
    {
        final int flags = Envelope.withChannel(Envelope.FLAG_TRACK_DELIVERY | Envelope.FLAG_FORWARD_ON_NONDELIVERY, 9);
        final Envelope envelope = new Envelope(TO, FROM, 1, flags, 5L, "e", FORWARD);

        envelope.redirectToForwardTarget();

        assertThat(envelope.recipient()).isSameAs(FORWARD);
        assertThat(envelope.forwardTo()).isNull();
        assertThat(envelope.flags() & Envelope.FLAG_FORWARD_ON_NONDELIVERY).isZero();
        assertThat(envelope.isTracked()).isTrue();
        assertThat(envelope.channel()).isEqualTo(9);
        assertThat(envelope.sender()).isSameAs(FROM);
    }

    @Test
    void rewriteRecipientChangesOnlyTheRecipient()
    {
        final Envelope envelope = new Envelope(ServiceId.of(0, "svc"), FROM, 1, 0, 5L, "e", null);

        envelope.rewriteRecipient(TO);

        assertThat(envelope.recipient()).isSameAs(TO);
        assertThat(envelope.sender()).isSameAs(FROM);
        assertThat(envelope.cookie()).isEqualTo(5L);
    }

    @Test
    void aLocalEnvelopeIsNotSerialized()
    {
        final Envelope envelope = new Envelope(TO, FROM, USER_TYPE, 0, 0L, "local", null);

        assertThat(envelope.isSerialized()).isFalse();
        assertThat(envelope.payload()).isNull();
        assertThat(envelope.memoryCost()).isEqualTo(Envelope.ENVELOPE_COST_BYTES);
    }

    @Test
    void eventWithADecoderCastsALocalEventWithoutDecoding()
    {
        final CountingDecoder decoder = new CountingDecoder(USER_TYPE);
        final Envelope envelope = new Envelope(TO, FROM, USER_TYPE, 0, 0L, "local", null);

        final String event = envelope.event(decoder);

        assertThat(event).isEqualTo("local");
        assertThat(decoder.calls()).isZero();
    }

    @Test
    void aSerializedEnvelopeDecodesOnFirstAccessOnly()
    {
        final CountingDecoder decoder = new CountingDecoder(USER_TYPE);
        final Envelope envelope = serialized("hello", decoder);

        assertThat(envelope.isSerialized()).isTrue();
        assertThat(envelope.payload().typeId()).isEqualTo(USER_TYPE);
        assertThat(decoder.calls()).as("nothing decodes before the recipient asks").isZero();

        assertThat(envelope.event()).isEqualTo("hello");
        assertThat(envelope.event()).isSameAs(envelope.event());
        final String typed = envelope.event(decoder);

        assertThat(typed).isSameAs(envelope.event());
        assertThat(decoder.calls()).isEqualTo(1);
    }

    @Test
    void eventWithADecoderOfAnotherTypeFailsClearly()
    {
        final CountingDecoder wrong = new CountingDecoder(EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 99));

        assertThatThrownBy(() -> serialized("x", new CountingDecoder(USER_TYPE)).event(wrong))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("decoder for type 4096:99")
            .hasMessageContaining("envelope of type 4096:7");
        assertThatThrownBy(() -> new Envelope(TO, FROM, USER_TYPE, 0, 0L, "local", null).event(wrong))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("decoder for type 4096:99");
        assertThat(wrong.calls()).isZero();
    }

    @Test
    void aSerializedEnvelopeWithoutACodecNamesTheType()
    {
        final Envelope envelope = serialized("x", null);

        assertThatThrownBy(envelope::event)
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("no codec is registered for event type 4096:7");
    }

    @Test
    void aSerializedEnvelopeCostsItsPayloadLengthBeforeAndAfterDecoding()
    {
        final Envelope envelope = serialized("0123456789", new CountingDecoder(USER_TYPE));

        assertThat(envelope.memoryCost()).isEqualTo(Envelope.ENVELOPE_COST_BYTES + 10);
        envelope.event();
        assertThat(envelope.memoryCost()).isEqualTo(Envelope.ENVELOPE_COST_BYTES + 10);
    }

    @Test
    void aLocalEventKeepsItsOwnMemoryCost()
    {
        final HasMemoryCost costly = () -> 500;

        assertThat(new Envelope(TO, FROM, 1, 0, 0L, costly, null).memoryCost())
            .isEqualTo(Envelope.ENVELOPE_COST_BYTES + 500);
    }

    @Test
    void aSerializedNoticeIsRecognisedWithoutDecoding()
    {
        final CountingDecoder decoder = new CountingDecoder(Undelivered.TYPE);
        final Envelope envelope = new Envelope(TO, FROM, Undelivered.TYPE, 0, 0L,
            WirePayload.copyOf(Undelivered.TYPE, new UnsafeBuffer(new byte[4]), 0, 4, decoder), null);

        assertThat(envelope.isUndeliveredNotice()).isTrue();
        assertThat(new Envelope(TO, FROM, USER_TYPE, 0, 0L, "local", null).isUndeliveredNotice()).isFalse();
        assertThat(decoder.calls()).isZero();
    }

    @Test
    void toStringDoesNotDecode()
    {
        final CountingDecoder decoder = new CountingDecoder(USER_TYPE);

        assertThat(serialized("secret", decoder).toString()).contains("WirePayload").doesNotContain("secret");
        assertThat(decoder.calls()).isZero();
    }

    private static Envelope serialized(final String text, final CountingDecoder decoderOrNull)
    {
        final byte[] bytes = CountingDecoder.ascii(text);
        final WirePayload payload = WirePayload.copyOf(USER_TYPE, new UnsafeBuffer(bytes), 0, bytes.length,
            decoderOrNull);
        return new Envelope(TO, FROM, USER_TYPE, 0, 0L, payload, null);
    }

    @Test
    void settlingAsksTheWireConstructorNotTheEventsClass()
    {
        final WirePayload payload = payload();
        final Envelope received = new Envelope(TO, FROM, USER_TYPE, Envelope.FLAG_TRACK_DELIVERY, 0L, payload, null);
        assertThat(received.isSerialized()).isTrue();
        assertThat(received.flags()).as("the runtime's own bit never shows").isEqualTo(Envelope.FLAG_TRACK_DELIVERY);
        received.settleHandled();
        assertThat(payload.isSettled()).as("a payload from the wire is settled with its envelope").isTrue();

        // a payload passed on as a plain object (a handler re-sending what it received) is left to its own envelope
        final WirePayload passedOn = payload();
        final Envelope copy = new Envelope(TO, FROM, USER_TYPE, 0, 0L, (Object)passedOn, null);
        assertThat(copy.isSerialized()).as("still recognised on demand").isTrue();
        copy.settle();
        assertThat(passedOn.isSettled()).isFalse();
    }

    @Test
    void theRuntimesBitCannotBeSetFromOutside()
    {
        final Envelope local = new Envelope(TO, FROM, USER_TYPE,
            ~Envelope.SETTABLE_FLAGS | Envelope.FLAG_TRACK_DELIVERY, 0L, "local", null);
        assertThat(local.flags()).isEqualTo(Envelope.FLAG_TRACK_DELIVERY);
        local.settle(); // would cast "local" to a payload if the bit had stuck
        local.settleHandled();
        final Envelope empty = new Envelope(TO, FROM, USER_TYPE, 0, 0L, null, null); // picks the payload constructor
        assertThat(empty.isSerialized()).isFalse();
        empty.settle();
        empty.settleHandled();
    }

    private static WirePayload payload()
    {
        final byte[] bytes = CountingDecoder.ascii("x");
        final WirePayload payload = WirePayload.copyOf(USER_TYPE, new UnsafeBuffer(bytes), 0, bytes.length,
            new CountingDecoder(USER_TYPE));
        payload.awaitReceipt();
        return payload;
    }

    private static Envelope envelope(final int flags)
    {
        return new Envelope(TO, FROM, 1, flags, 0L, "event", null);
    }
}
