package io.troupe.serialization;

import io.troupe.serialization.wire.FrameDecoder;
import io.troupe.serialization.wire.FrameEncoder;
import io.troupe.serialization.wire.FrameResult;
import io.troupe.serialization.wire.WireFormat;


import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.EventTypes;
import io.troupe.actor.NodeConnected;
import io.troupe.actor.ServiceId;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredReason;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An event's whole way over the wire: encoded by its codec straight into an envelope frame, validated,
 * rebuilt as an envelope whose payload the recipient decodes lazily, and forwarded again as it is.
 */
class EnvelopeWireTest
{
    private static final ActorId RECIPIENT = ActorId.of(3, 1729, 17);
    private static final ActorId SENDER = ActorId.of(5, 4242, 9);
    private static final EventCodecRegistry CODECS = EventCodecRegistry.builder()
        .withTroupeCodecs()
        .register(RecordCodecTest.ALL_KINDS)
        .build();

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4096]);
    private final FrameEncoder encoder = new FrameEncoder();
    private final List<Envelope> received = new ArrayList<>();
    private final FrameDecoder decoder = new FrameDecoder(frame -> received.add(frame.toEnvelope(CODECS)));

    @Test
    void aUserEventTravelsAndIsDecodedLazilyByTheRecipient()
    {
        final RecordCodecTest.AllKinds event = RecordCodecTest.typical();
        final Envelope sent = new Envelope(RECIPIENT, SENDER, RecordCodecTest.ALL_KINDS_TYPE,
            Envelope.FLAG_TRACK_DELIVERY, 99L, event, null);

        final int length = encoder.encodeEnvelope(buffer, 0, sent, 5, 11L, 3, RecordCodecTest.ALL_KINDS);

        assertThat(length).isEqualTo(WireFormat.envelopeLength(RecordCodecTest.ALL_KINDS.encodedLength(event)));
        assertThat(decoder.decode(buffer, 0, length)).isEqualTo(FrameResult.OK);
        final Envelope arrived = received.get(0);
        assertThat(arrived.recipient()).isEqualTo(RECIPIENT);
        assertThat(arrived.sender()).isEqualTo(SENDER);
        assertThat(arrived.type()).isEqualTo(RecordCodecTest.ALL_KINDS_TYPE);
        assertThat(arrived.flags()).isEqualTo(Envelope.FLAG_TRACK_DELIVERY);
        assertThat(arrived.cookie()).isEqualTo(99L);
        assertThat(arrived.isSerialized()).isTrue();
        assertThat(arrived.payload().isDecoded()).as("nothing decoded on the transport thread").isFalse();
        assertThat(arrived.event()).isEqualTo(event);
        assertThat(arrived.event(RecordCodecTest.ALL_KINDS)).isSameAs(arrived.event());
    }

    @Test
    void aReceivedEnvelopeIsForwardedWithItsPayloadBytesAsTheyAre()
    {
        final Undelivered notice = new Undelivered(RECIPIENT, 7, 1L, UndeliveredReason.ACTOR_UNKNOWN, false);
        final Envelope sent = new Envelope(SENDER, RECIPIENT, Undelivered.TYPE, 0, 1L, notice, null);
        final int length = encoder.encodeEnvelope(buffer, 0, sent, 0, 0L, 1, TroupeCodecs.UNDELIVERED);
        assertThat(decoder.decode(buffer, 0, length)).isEqualTo(FrameResult.OK);
        final Envelope arrived = received.get(0);

        final UnsafeBuffer again = new UnsafeBuffer(new byte[4096]);
        final int forwardedLength = encoder.encodeEnvelope(again, 100, arrived, 0, 0L, 1, TroupeCodecs.UNDELIVERED);

        assertThat(forwardedLength).isEqualTo(length);
        assertThat(arrived.payload().isDecoded()).as("forwarding does not decode").isFalse();
        assertThat(decoder.decode(again, 100, forwardedLength)).isEqualTo(FrameResult.OK);
        assertThat(received.get(1).event()).isEqualTo(notice);
    }

    @Test
    void aServiceRecipientStaysAServiceId()
    {
        final ServiceId service = ServiceId.of(3, "pricing");
        final Envelope sent = new Envelope(service, SENDER, NodeConnected.TYPE, 0, 0L, new NodeConnected(8), null);
        final int length = encoder.encodeEnvelope(buffer, 0, sent, 0, 0L, 1, TroupeCodecs.NODE_CONNECTED);
        decoder.decode(buffer, 0, length);
        assertThat(received.get(0).recipient()).isInstanceOf(ServiceId.class).isEqualTo(service);
        assertThat(received.get(0).event()).isEqualTo(new NodeConnected(8));
    }

    @Test
    void aTypeWithoutACodecArrivesAndFailsClearlyOnlyWhenDecoded()
    {
        final int unknownType = EventTypes.typeId(EventTypes.SPACE_USER_FIRST + 1, 5);
        final Envelope sent = new Envelope(RECIPIENT, SENDER, unknownType, 0, 0L, "ignored", null);
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[] {1, 2, 3});
        final int length = encoder.encodeEnvelope(buffer, 0, sent, 0, 0L, 1, payload, 0, 3);
        assertThat(decoder.decode(buffer, 0, length)).isEqualTo(FrameResult.OK);
        final Envelope arrived = received.get(0);
        assertThat(arrived.payload().length()).isEqualTo(3);
        assertThatThrownBy(arrived::event).hasMessageContaining("no codec");
    }

    @Test
    void aCodecForAnotherTypeOrClassIsRefusedBeforeAnythingIsWritten()
    {
        final Envelope wrongType = new Envelope(RECIPIENT, SENDER, Undelivered.TYPE, 0, 0L, new NodeConnected(1), null);
        assertThatThrownBy(() -> encoder.encodeEnvelope(buffer, 0, wrongType, 0, 0L, 1, TroupeCodecs.NODE_CONNECTED))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining(TroupeCodecs.NODE_CONNECTED.name());
        final Envelope wrongClass = new Envelope(RECIPIENT, SENDER, NodeConnected.TYPE, 0, 0L, "not a NodeConnected",
            null);
        assertThatThrownBy(() -> encoder.encodeEnvelope(buffer, 0, wrongClass, 0, 0L, 1, TroupeCodecs.NODE_CONNECTED))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("java.lang.String");
    }
}
