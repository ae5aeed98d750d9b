package io.troupe.serialization.wire;

import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.ServiceId;
import io.troupe.actor.UndeliveredReason;
import io.troupe.serialization.EventCodecRegistry;
import io.troupe.serialization.internal.sbe.CreditDeltasDecoder;
import io.troupe.serialization.internal.sbe.DirectoryUpdateDecoder;
import io.troupe.serialization.internal.sbe.GoodbyeDecoder;
import io.troupe.serialization.internal.sbe.HandshakeDecoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every message written by {@link FrameEncoder} and read back through {@link FrameDecoder}, every field
 * checked (the handler reads every accessor of the view): typical values, extreme values, empty var data,
 * and every size limit at, and one past, its maximum.
 */
class FrameRoundTripTest
{
    private static final ActorId RECIPIENT = ActorId.of(7, 123_456_789L, 42, 3);
    private static final ActorId SENDER = ActorId.of(ActorId.MAX_NODE_ID, 987_654_321L, 17);
    private static final ActorId MIN_MAX = ActorId.fromRaw(Long.MIN_VALUE, Long.MAX_VALUE);
    private static final ActorId MAX_MIN = ActorId.fromRaw(Long.MAX_VALUE, Long.MIN_VALUE);

    private final RecordingFrameHandler handler = new RecordingFrameHandler();
    private final FrameDecoder decoder = new FrameDecoder(handler);
    private final FrameEncoder encoder = new FrameEncoder();
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64 * 1024]);

    @AfterEach
    void everyFrameWasValidAndCountedAsOk()
    {
        assertThat(handler.readFailures).isEmpty();
        assertThat(decoder.count(FrameResult.OK)).isEqualTo(handler.frames.size());
        assertThat(decoder.count(FrameResult.HANDLER_FAILED)).isZero();
    }

    @Test
    void envelopeCarriesEveryField()
    {
        final byte[] payload = randomBytes(100, 1);
        final int flags = Envelope.withChannel(Envelope.FLAG_TRACK_DELIVERY, 200);
        final Envelope envelope = new Envelope(RECIPIENT, SENDER, 0x1234_5678, flags, 0xCAFE_BABE_0000_0001L, null,
            null);
        final UnsafeBuffer source = new UnsafeBuffer(new byte[payload.length + 10]);
        source.putBytes(10, payload);

        final int length = encoder.encodeEnvelope(buffer, 0, envelope, 513, 99_000_000_001L, 1_500, source, 10,
            payload.length);

        assertThat(length).isEqualTo(WireFormat.envelopeLength(payload.length));
        assertFields(decodeOk(buffer, 0, length), envelopeFields(length, RECIPIENT, SENDER, 0x1234_5678, flags,
            0xCAFE_BABE_0000_0001L, 513, 99_000_000_001L, 1_500, payload));
    }

    @Test
    void forwardedEnvelopeCarriesItsTargetAfterEveryFieldOfAnEnvelope()
    {
        final byte[] payload = randomBytes(40, 7);
        final ActorId target = ActorId.of(9, 77L, 3, 2);
        final int flags = Envelope.FLAG_TRACK_DELIVERY | Envelope.FLAG_FORWARD_ON_NONDELIVERY;
        final Envelope envelope = new Envelope(RECIPIENT, SENDER, 42, flags, 5L, null, target);

        final int length = encoder.encodeEnvelope(buffer, 0, envelope, 3, 4L, 5, new UnsafeBuffer(payload), 0,
            payload.length);

        assertThat(length).isEqualTo(WireFormat.envelopeLength(payload.length, true))
            .isEqualTo(WireFormat.envelopeLength(payload.length) + 2 * Long.BYTES);
        final Map<String, Object> expected = envelopeFields(length, RECIPIENT, SENDER, 42, flags, 5L, 3, 4L, 5,
            payload);
        expected.put("templateId", WireFormat.FORWARDED_ENVELOPE);
        expected.put("forwardTo", target);
        assertFields(decodeOk(buffer, 0, length), expected);
        assertThat(EnvelopeCompaction.isBase(buffer, 0, length)).as("never the base of compact frames").isFalse();
    }

    @Test
    void aForwardTargetTravelsOnlyWithTheForwardFlagAndComesBackInTheDeliveredEnvelope()
    {
        final ActorId target = ServiceId.of(9, "backup");
        final Envelope unflagged = new Envelope(RECIPIENT, SENDER, 42, 0, 5L, null, target);
        final int plain = encoder.encodeEnvelope(buffer, 0, unflagged, 0, 0L, 0, new UnsafeBuffer(new byte[0]), 0, 0);
        assertThat(plain).isEqualTo(WireFormat.envelopeLength(0));
        assertThat(decodeOk(buffer, 0, plain)).doesNotContainKey("forwardTo");

        final Envelope flagged = new Envelope(RECIPIENT, SENDER, 42, Envelope.FLAG_FORWARD_ON_NONDELIVERY, 5L, null,
            target);
        final int length = encoder.encodeEnvelope(buffer, 0, flagged, 0, 0L, 0, new UnsafeBuffer(new byte[0]), 0, 0);
        final Envelope[] delivered = new Envelope[1];
        final FrameDecoder rebuilding = new FrameDecoder(new FrameHandler()
        {
            @Override
            public void onEnvelope(final EnvelopeFrame frame)
            {
                delivered[0] = frame.toEnvelope(EventCodecRegistry.builder().build());
            }
        });
        assertThat(rebuilding.decode(buffer, 0, length)).isEqualTo(FrameResult.OK);
        assertThat(delivered[0].forwardTo()).isEqualTo(target).isInstanceOf(ServiceId.class);
        assertThat(delivered[0].flags() & Envelope.FLAG_FORWARD_ON_NONDELIVERY).isNotZero();
    }

    @Test
    void aForwardedEnvelopeWithoutRoomForItsTargetIsRefused()
    {
        final Envelope envelope = new Envelope(RECIPIENT, SENDER, 42, Envelope.FLAG_FORWARD_ON_NONDELIVERY, 5L, null,
            ActorId.of(9, 77L, 3));
        final int length = encoder.encodeEnvelope(buffer, 0, envelope, 0, 0L, 0, new UnsafeBuffer(new byte[8]), 0, 8);
        // claim the plain envelope's block: the target's 16 bytes would be read as the payload's length and bytes
        buffer.putShort(0, (short)(WireFormat.envelopeLength(0) - WireFormat.HEADER_LENGTH -
            WireFormat.VAR_DATA_HEADER_LENGTH), FrameSamples.ORDER);

        assertThat(new FrameDecoder(frame -> { }).decode(buffer, 0, length)).isEqualTo(FrameResult.BLOCK_TOO_SHORT);
    }

    @Test
    void envelopeBegunInPlaceTakesThePayloadAtTheReturnedOffset()
    {
        final byte[] payload = randomBytes(33, 2);
        final int payloadAt = encoder.beginEnvelope(buffer, 100, RECIPIENT, SENDER, 5, 0, 6L, 7, 8L, 9, null,
            payload.length);
        buffer.putBytes(payloadAt, payload);
        final int length = payloadAt + payload.length - 100;

        assertThat(length).isEqualTo(WireFormat.envelopeLength(payload.length));
        final Map<String, Object> frame = decodeOk(buffer, 100, length);
        assertFields(frame, envelopeFields(length, RECIPIENT, SENDER, 5, 0, 6L, 7, 8L, 9, payload));
    }

    @Test
    void envelopeWithAnEmptyPayloadAndNoSender()
    {
        final int length = encoder.beginEnvelope(buffer, 0, RECIPIENT, null, 1, 2, 3L, 4, 5L, 6, null, 0);

        assertThat(length).isEqualTo(WireFormat.envelopeLength(0));
        final Map<String, Object> frame = decodeOk(buffer, 0, length);
        assertFields(frame, envelopeFields(length, RECIPIENT, ActorId.NONE, 1, 2, 3L, 4, 5L, 6, new byte[0]));
        assertThat(((ActorId)frame.get("sender")).isNone()).isTrue();
    }

    @Test
    void envelopeWithExtremeIdsAndValues()
    {
        final byte[] payload = {(byte)0xFF, 0, (byte)0x80, 0x7F};
        final Envelope envelope = new Envelope(MIN_MAX, MAX_MIN, Integer.MIN_VALUE, -1, Long.MIN_VALUE, null, null);

        final int length = encoder.encodeEnvelope(buffer, 0, envelope, Integer.MAX_VALUE, Long.MAX_VALUE,
            Integer.MIN_VALUE, new UnsafeBuffer(payload), 0, payload.length);

        final Map<String, Object> frame = decodeOk(buffer, 0, length);
        // every flag bit a sender may set travels; the runtime's own bit is never given out (Envelope.SETTABLE_FLAGS)
        assertFields(frame, envelopeFields(length, MIN_MAX, MAX_MIN, Integer.MIN_VALUE, Envelope.SETTABLE_FLAGS,
            Long.MIN_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE, Integer.MIN_VALUE, payload));
        // raw2 = Long.MAX_VALUE has the service bit set: the id comes back as a service id, as it went
        assertThat(frame.get("recipient")).isInstanceOf(ServiceId.class);
        assertThat(frame.get("sender")).isNotInstanceOf(ServiceId.class);
    }

    @Test
    void envelopeToAServiceComesBackAsAServiceId()
    {
        final ServiceId orders = ServiceId.of(12, "orders.v2~!");
        final int length = encoder.beginEnvelope(buffer, 0, orders, SENDER, 1, 0, 1L, 0, 0L, 0, null, 0);

        final Map<String, Object> frame = decodeOk(buffer, 0, length);

        assertFields(frame, envelopeFields(length, orders, SENDER, 1, 0, 1L, 0, 0L, 0, new byte[0]));
        assertThat(frame.get("recipient")).isInstanceOfSatisfying(ServiceId.class, id ->
        {
            assertThat(id.name()).isEqualTo("orders.v2~!");
            assertThat(id.nodeId()).isEqualTo(12);
        });
    }

    @Test
    void envelopeWithThePayloadThatFillsTheMaximumFrame()
    {
        final int payloadLength = WireFormat.DEFAULT_MAX_FRAME_BYTES - WireFormat.envelopeLength(0);
        final byte[] payload = randomBytes(payloadLength, 3);
        final UnsafeBuffer exact = new UnsafeBuffer(new byte[WireFormat.DEFAULT_MAX_FRAME_BYTES + 1]);
        final Envelope envelope = new Envelope(RECIPIENT, SENDER, 77, 0, 1L, null, null);

        final int length = encoder.encodeEnvelope(exact, 0, envelope, 1, 2L, 3, new UnsafeBuffer(payload), 0,
            payloadLength);

        assertThat(length).isEqualTo(WireFormat.DEFAULT_MAX_FRAME_BYTES);
        final Map<String, Object> frame = decodeOk(new UnsafeBuffer(exact.byteArray(), 0, length), 0, length);
        assertThat((byte[])frame.get("payload")).isEqualTo(payload);
        assertThat(frame.get("frameLength")).isEqualTo(WireFormat.DEFAULT_MAX_FRAME_BYTES);

        final int tooLong = encoder.encodeEnvelope(exact, 0, envelope, 1, 2L, 3,
            new UnsafeBuffer(new byte[payloadLength + 1]), 0, payloadLength + 1);
        assertThat(decoder.decode(exact, 0, tooLong)).isEqualTo(FrameResult.TOO_LONG);
        assertThat(decoder.count(FrameResult.TOO_LONG)).isEqualTo(1);
        assertThat(handler.frames).hasSize(1);
    }

    @Test
    void envelopeAtAConfiguredMaximumFrame()
    {
        final RecordingFrameHandler small = new RecordingFrameHandler();
        final FrameDecoder smallDecoder = new FrameDecoder(small, WireFormat.MIN_MAX_FRAME_BYTES);
        final int payloadLength = WireFormat.MIN_MAX_FRAME_BYTES - WireFormat.envelopeLength(0);

        final int fits = encoder.beginEnvelope(buffer, 0, RECIPIENT, SENDER, 1, 0, 0L, 0, 0L, 0, null, payloadLength) +
            payloadLength;
        assertThat(smallDecoder.decode(buffer, 0, fits)).isEqualTo(FrameResult.OK);
        final int over = encoder.beginEnvelope(buffer, 0, RECIPIENT, SENDER, 1, 0, 0L, 0, 0L, 0, null,
            payloadLength + 1) + payloadLength + 1;
        assertThat(smallDecoder.decode(buffer, 0, over)).isEqualTo(FrameResult.TOO_LONG);

        assertThat(smallDecoder.count(FrameResult.OK)).isEqualTo(1);
        assertThat(smallDecoder.count(FrameResult.TOO_LONG)).isEqualTo(1);
        assertThat(small.frames).hasSize(1);
        assertThat(smallDecoder.maxFrameBytes()).isEqualTo(WireFormat.MIN_MAX_FRAME_BYTES);
    }

    @Test
    void encoderRefusesAFrameThatDoesNotFitTheBuffer()
    {
        final UnsafeBuffer tight = new UnsafeBuffer(new byte[WireFormat.envelopeLength(10)]);

        assertThat(encoder.beginEnvelope(tight, 0, RECIPIENT, SENDER, 1, 0, 0L, 0, 0L, 0, null, 10))
            .isEqualTo(WireFormat.envelopeLength(0));
        assertThatThrownBy(() -> encoder.beginEnvelope(tight, 1, RECIPIENT, SENDER, 1, 0, 0L, 0, 0L, 0, null, 10))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no room");
        assertThatThrownBy(() -> encoder.beginEnvelope(tight, -1, RECIPIENT, SENDER, 1, 0, 0L, 0, 0L, 0, null, 0))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no room");
        assertThatThrownBy(() -> encoder.encodeHeartbeat(new UnsafeBuffer(new byte[20]), 0, 1, 2L, 3L, 4L, 0L, 0L))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no room");
        assertThatThrownBy(() -> encoder.encodeGoodbye(new UnsafeBuffer(new byte[25]), 0, 1, 2L, GoodbyeReason.SHUTDOWN,
            "x"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no room");
    }

    @Test
    void encoderRefusesANegativeOrOverflowingPayloadLength()
    {
        assertThatThrownBy(() -> encoder.beginEnvelope(buffer, 0, RECIPIENT, SENDER, 1, 0, 0L, 0, 0L, 0, null, -1))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("payload length");
        assertThatThrownBy(() -> encoder.beginEnvelope(buffer, 0, RECIPIENT, SENDER, 1, 0, 0L, 0, 0L, 0, null,
            Integer.MAX_VALUE))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("payload length");
        assertThatThrownBy(() -> encoder.encodeEnvelope(buffer, 0,
            new Envelope(RECIPIENT, SENDER, 1, 0, 0L, null, null), 0, 0L, 0, buffer, 0, -5))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("payload length");
    }

    @ParameterizedTest
    @EnumSource(value = HandshakePhase.class, names = "UNKNOWN", mode = EnumSource.Mode.EXCLUDE)
    void handshakeCarriesEveryField(final HandshakePhase phase)
    {
        final Handshake step = new Handshake(phase, "troupe-prod-eu", 3, 1_700_000_000_123L, 4, 1_700_000_000_456L, 1,
            7, randomBytes(32, 4), randomBytes(48, 5), "because");

        final int length = encoder.encodeHandshake(buffer, 0, step);

        assertFields(decodeOk(buffer, 0, length), handshakeFields(length, step));
    }

    @Test
    void handshakeWithEmptyAndNullVarData()
    {
        final Handshake empty = new Handshake(HandshakePhase.HELLO, "", 1, 2L, 3, 0L, 0, 0, new byte[0], new byte[0],
            "");
        final Handshake nulls = new Handshake(HandshakePhase.CONFIRM, null, 1, 2L, 3, 4L, 5, 6, null, null, null);

        final int emptyLength = encoder.encodeHandshake(buffer, 0, empty);
        assertFields(decodeOk(buffer, 0, emptyLength), handshakeFields(emptyLength, empty));
        final int nullLength = encoder.encodeHandshake(buffer, 0, nulls);
        assertThat(nullLength).isEqualTo(emptyLength);
        assertFields(decodeOk(buffer, 0, nullLength), handshakeFields(nullLength,
            new Handshake(HandshakePhase.CONFIRM, "", 1, 2L, 3, 4L, 5, 6, new byte[0], new byte[0], "")));
    }

    @Test
    void handshakeWithEveryVarFieldAtItsLimit()
    {
        // 127 two-byte characters and one one-byte character: 255 bytes of UTF-8
        final String clusterId = "é".repeat(127) + "x";
        final String detail = "€".repeat(341) + "z";
        assertThat(clusterId.getBytes(StandardCharsets.UTF_8)).hasSize(WireFormat.MAX_CLUSTER_ID_BYTES);
        assertThat(detail.getBytes(StandardCharsets.UTF_8)).hasSize(WireFormat.MAX_DETAIL_BYTES);
        final Handshake step = new Handshake(HandshakePhase.REFUSE, clusterId, Integer.MIN_VALUE, Long.MIN_VALUE,
            Integer.MAX_VALUE, Long.MAX_VALUE, 0xFFFF, 0xFFFF, randomBytes(WireFormat.MAX_AUTH_BYTES, 6),
            randomBytes(WireFormat.MAX_AUTH_BYTES, 7), detail);

        final int length = encoder.encodeHandshake(buffer, 0, step);

        assertThat(length).isEqualTo(WireFormat.HEADER_LENGTH + HandshakeDecoder.BLOCK_LENGTH +
            6 * WireFormat.VAR_DATA_HEADER_LENGTH + WireFormat.MAX_CLUSTER_ID_BYTES + 2 * WireFormat.MAX_AUTH_BYTES +
            WireFormat.MAX_DETAIL_BYTES);
        assertFields(decodeOk(buffer, 0, length), handshakeFields(length, step));
    }

    @Test
    void handshakeCarriesATypeTableUpToItsLimitAndAVersionTwoStepReadsAsHavingNone()
    {
        final byte[] types = randomBytes(WireFormat.MAX_TYPE_TABLE_BYTES, 8);
        final Handshake step = new Handshake(HandshakePhase.WELCOME, "c", 1, 2L, 3, 4L, 1, 1, randomBytes(32, 9),
            randomBytes(32, 10), "", types);

        final int length = encoder.encodeHandshake(buffer, 0, step);
        final RecordingFrameHandler handler = new RecordingFrameHandler();
        final FrameDecoder reader = new FrameDecoder(handler, 1 << 20);
        assertThat(reader.decode(buffer, 0, length)).isEqualTo(FrameResult.OK);
        assertThat(handler.handshakeTypes).isEqualTo(types);
        assertThatThrownBy(() -> encoder.encodeHandshake(buffer, 0, new Handshake(HandshakePhase.WELCOME, "c", 1, 2L, 3,
            4L, 1, 1, null, null, "", new byte[WireFormat.MAX_TYPE_TABLE_BYTES + 1])))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("type table is 6145 bytes");

        // as a version 2 node writes it: no types field at all (and none of version 4's)
        final int v2Length = olderHandshake(buffer, encoder.encodeHandshake(buffer, 0,
            new Handshake(HandshakePhase.WELCOME, "c", 1, 2L, 3, 4L, 1, 1, randomBytes(32, 9), randomBytes(32, 10),
                "")), 2);
        assertThat(reader.decode(buffer, 0, v2Length)).isEqualTo(FrameResult.OK);
        assertThat(handler.handshakeTypes).isEmpty();
    }

    @Test
    void handshakeCarriesItsFrameProtectionAndEchoAndAVersionThreeStepReadsAsHavingNeither()
    {
        final byte[] echo = randomBytes(32, 11);
        final Handshake step = new Handshake(HandshakePhase.CONFIRM, "c", 1, 2L, 3, 4L, 3, 3, new byte[0],
            randomBytes(32, 12), "", randomBytes(16, 13), FrameProtection.ENCRYPTED, echo);
        final int length = encoder.encodeHandshake(buffer, 0, step);
        assertFields(decodeOk(buffer, 0, length), handshakeFields(length, step));

        final int v3Length = olderHandshake(buffer, encoder.encodeHandshake(buffer, 0, new Handshake(step.phase(),
            "c", 1, 2L, 3, 4L, 3, 3, new byte[0], step.proof(), "", step.types(), FrameProtection.ENCRYPTED,
            new byte[0])), 3);
        final Map<String, Object> v3 = decodeOk(buffer, 0, v3Length);
        assertThat(v3).containsEntry("version", 3).containsEntry("protection", FrameProtection.UNKNOWN);
        assertThat((byte[])v3.get("echo")).isEmpty();
        assertThat((byte[])v3.get("proof")).isEqualTo(step.proof());
        assertThatThrownBy(() -> encoder.encodeHandshake(buffer, 0, new Handshake(HandshakePhase.HELLO, "c", 1, 2L, 3,
            0L, 1, 1, null, null, "", null, FrameProtection.UNKNOWN, null)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("how frames are protected");
    }

    /**
     * Rewrites a handshake this build encoded (with an empty echo) as an older version writes it: without version
     * 4's frame protection byte and echo, and for version 2 without the type table (which must be empty).
     *
     * @return the older frame's length.
     */
    static int olderHandshake(final UnsafeBuffer buffer, final int length, final int version)
    {
        final int blockEnd = WireFormat.HEADER_LENGTH + HandshakeDecoder.BLOCK_LENGTH;
        final int oldBlockEnd = WireFormat.HEADER_LENGTH + HandshakeDecoder.frameProtectionEncodingOffset();
        final int echoLength = buffer.getInt(length - WireFormat.VAR_DATA_HEADER_LENGTH, ByteOrder.LITTLE_ENDIAN);
        if (echoLength != 0)
        {
            throw new IllegalArgumentException("the echo must be empty");
        }
        final byte[] rest = new byte[length - blockEnd];
        buffer.getBytes(blockEnd, rest);
        buffer.putBytes(oldBlockEnd, rest);
        int oldLength = length - (blockEnd - oldBlockEnd) - WireFormat.VAR_DATA_HEADER_LENGTH; // no echo
        if (version < 3)
        {
            oldLength -= WireFormat.VAR_DATA_HEADER_LENGTH; // no (empty) type table
        }
        buffer.putShort(0, (short)(oldBlockEnd - WireFormat.HEADER_LENGTH), ByteOrder.LITTLE_ENDIAN);
        buffer.putShort(6, (short)version, ByteOrder.LITTLE_ENDIAN);
        return oldLength;
    }

    @Test
    void handshakeRefusesAVarFieldOneBytePastItsLimit()
    {
        final String clusterId = "é".repeat(128);
        final byte[] auth = new byte[WireFormat.MAX_AUTH_BYTES + 1];
        final String detail = "x".repeat(WireFormat.MAX_DETAIL_BYTES + 1);

        assertThatThrownBy(() -> encoder.encodeHandshake(buffer, 0, handshake(clusterId, null, null, null)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cluster id is 256 bytes");
        assertThatThrownBy(() -> encoder.encodeHandshake(buffer, 0, handshake("c", auth, null, null)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("challenge is 257 bytes");
        assertThatThrownBy(() -> encoder.encodeHandshake(buffer, 0, handshake("c", null, auth, null)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("proof is 257 bytes");
        assertThatThrownBy(() -> encoder.encodeHandshake(buffer, 0, handshake("c", null, null, detail)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("detail is 1025 bytes");
        assertThatThrownBy(() -> encoder.encodeHandshake(buffer, 0,
            new Handshake(HandshakePhase.UNKNOWN, "c", 1, 1L, 2, 0L, 1, 1, null, null, null)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("UNKNOWN");
    }

    @Test
    void handshakeRefusesAProtocolVersionThatDoesNotFitItsUint16()
    {
        assertThatThrownBy(() -> encoder.encodeHandshake(buffer, 0,
            new Handshake(HandshakePhase.HELLO, "c", 1, 1L, 2, 0L, 1, 0x1_0000, null, null, null)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("max protocol version");
        assertThatThrownBy(() -> encoder.encodeHandshake(buffer, 0,
            new Handshake(HandshakePhase.HELLO, "c", 1, 1L, 2, 0L, -1, 1, null, null, null)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("min protocol version");
    }

    @Test
    void heartbeatAndAckCarryEveryField()
    {
        int length = encoder.encodeHeartbeat(buffer, 0, 12, 1_700_000_000_000L, 123_456_789_012L, 42L,
            987_654_321L, 1_250_000L);
        assertFields(decodeOk(buffer, 0, length), fields(
            "templateId", WireFormat.HEARTBEAT, "version", WireFormat.SCHEMA_VERSION, "frameLength", length,
            "incarnation", 1_700_000_000_000L, "sendTimeNs", 123_456_789_012L, "sequence", 42L, "nodeId", 12,
            "echoTimeNs", 987_654_321L, "echoDelayNs", 1_250_000L));

        length = encoder.encodeHeartbeat(buffer, 0, Integer.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE, -1L,
            Long.MIN_VALUE, Long.MAX_VALUE);
        assertFields(decodeOk(buffer, 0, length), fields(
            "templateId", WireFormat.HEARTBEAT, "version", WireFormat.SCHEMA_VERSION, "frameLength", length,
            "incarnation", Long.MAX_VALUE, "sendTimeNs", Long.MIN_VALUE, "sequence", -1L, "nodeId", Integer.MIN_VALUE,
            "echoTimeNs", Long.MIN_VALUE, "echoDelayNs", Long.MAX_VALUE));

        // no heartbeat received yet: no echo
        length = encoder.encodeHeartbeat(buffer, 0, 1, 2L, 3L, 4L, 0L, 0L);
        assertFields(decodeOk(buffer, 0, length), fields(
            "templateId", WireFormat.HEARTBEAT, "version", WireFormat.SCHEMA_VERSION, "frameLength", length,
            "incarnation", 2L, "sendTimeNs", 3L, "sequence", 4L, "nodeId", 1, "echoTimeNs", 0L, "echoDelayNs", 0L));

        length = encoder.encodeAck(buffer, 0, 5, 6L, 7, 8L);
        assertFields(decodeOk(buffer, 0, length), fields(
            "templateId", WireFormat.ACK, "version", WireFormat.SCHEMA_VERSION, "frameLength", length,
            "incarnation", 6L, "ackedPosition", 8L, "nodeId", 5, "streamId", 7));

        length = encoder.encodeAck(buffer, 0, Integer.MAX_VALUE, Long.MIN_VALUE, Integer.MIN_VALUE, Long.MAX_VALUE);
        assertFields(decodeOk(buffer, 0, length), fields(
            "templateId", WireFormat.ACK, "version", WireFormat.SCHEMA_VERSION, "frameLength", length,
            "incarnation", Long.MIN_VALUE, "ackedPosition", Long.MAX_VALUE, "nodeId", Integer.MAX_VALUE,
            "streamId", Integer.MIN_VALUE));
    }

    @Test
    void creditDeltasWithNoneSomeAndTheMostEntries()
    {
        for (final int count : new int[]{0, 1, 3, WireFormat.MAX_GROUP_ENTRIES})
        {
            final int[] owners = new int[count];
            final long[] accounts = new long[count];
            final long[] deltas = new long[count];
            final List<Map<String, Object>> expected = new ArrayList<>(count);
            final SplittableRandom random = new SplittableRandom(count);
            for (int i = 0; i < count; i++)
            {
                owners[i] = i == 0 ? Integer.MIN_VALUE : random.nextInt();
                accounts[i] = i == 0 ? Long.MAX_VALUE : random.nextLong();
                deltas[i] = i == 0 ? Long.MIN_VALUE : random.nextLong();
                expected.add(FrameSnapshots.creditDelta(owners[i], accounts[i], deltas[i]));
            }
            final UnsafeBuffer out = new UnsafeBuffer(new byte[WireFormat.HEADER_LENGTH +
                CreditDeltasDecoder.BLOCK_LENGTH + WireFormat.GROUP_HEADER_LENGTH +
                CreditDeltasDecoder.DeltasDecoder.sbeBlockLength() * count]);

            final int length = encoder.encodeCreditDeltas(out, 0, 9, 10L, owners, accounts, deltas, count);

            assertThat(length).isEqualTo(out.capacity()).isLessThanOrEqualTo(WireFormat.DEFAULT_MAX_FRAME_BYTES);
            assertFields(decodeOk(out, 0, length), fields(
                "templateId", WireFormat.CREDIT_DELTAS, "version", WireFormat.SCHEMA_VERSION, "frameLength", length,
                "incarnation", 10L, "nodeId", 9, "deltas", expected));
        }
    }

    @Test
    void creditDeltasRefusesMoreEntriesThanTheGroupCountsOrTheArraysHold()
    {
        // 65,535 is the uint16 count's null value in SBE: a group holds at most 65,534 entries
        assertThat(WireFormat.MAX_GROUP_ENTRIES).isEqualTo(65_534);
        final int[] owners = new int[0x1_0000];
        final long[] longs = new long[0x1_0000];
        final UnsafeBuffer big = new UnsafeBuffer(new byte[2 << 20]);

        assertThatThrownBy(() -> encoder.encodeCreditDeltas(big, 0, 1, 1L, owners, longs, longs, 0xFFFF))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0..65534");
        assertThatThrownBy(() -> encoder.encodeCreditDeltas(big, 0, 1, 1L, new int[2], longs, longs, 3))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("within the arrays");
        assertThatThrownBy(() -> encoder.encodeCreditDeltas(big, 0, 1, 1L, owners, longs, longs, -1))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void undeliveredNoticeForEveryReason()
    {
        for (final UndeliveredReason reason : UndeliveredReason.values())
        {
            if (reason == UndeliveredReason.REFUSED)
            {
                continue; // no code in this frame: clients are told in an envelope (OtfIndependentReaderTest checks)
            }
            for (final boolean unsure : new boolean[]{false, true})
            {
                final int length = encoder.encodeUndeliveredNotice(buffer, 0, SENDER, MIN_MAX, -7, Long.MIN_VALUE,
                    reason, unsure);

                assertFields(decodeOk(buffer, 0, length), fields(
                    "templateId", WireFormat.UNDELIVERED_NOTICE, "version", WireFormat.SCHEMA_VERSION, "frameLength",
                    length, "senderRaw1", SENDER.raw1(), "senderRaw2", SENDER.raw2(), "sender", SENDER, "recipient",
                    MIN_MAX, "cookie", Long.MIN_VALUE, "eventType", -7, "reason", reason, "reasonCode",
                    reason.ordinal(), "unsure", unsure));
            }
        }
    }

    @Test
    void directoryUpdateWithServiceIdsBothOpsAsSnapshotAndDelta()
    {
        final List<DirectoryEntry> entries = List.of(
            new DirectoryEntry(ServiceId.of(3, "orders"), RECIPIENT, DirectoryOp.REGISTER),
            new DirectoryEntry(ServiceId.of(0, "x"), SENDER, DirectoryOp.UNREGISTER),
            new DirectoryEntry(FrameSamples.service(Long.MIN_VALUE, Long.MAX_VALUE), MAX_MIN, DirectoryOp.REGISTER));
        for (final boolean snapshot : new boolean[]{true, false})
        {
            final int length = encoder.encodeDirectoryUpdate(buffer, 0, 3, 4L, Long.MAX_VALUE, snapshot, entries);

            final Map<String, Object> frame = decodeOk(buffer, 0, length);
            assertFields(frame, fields(
                "templateId", WireFormat.DIRECTORY_UPDATE, "version", WireFormat.SCHEMA_VERSION, "frameLength", length,
                "incarnation", 4L, "directoryVersion", Long.MAX_VALUE, "nodeId", 3, "snapshot", snapshot,
                "entries", directoryEntries(entries)));
            @SuppressWarnings("unchecked")
            final List<Map<String, Object>> decoded = (List<Map<String, Object>>)frame.get("entries");
            assertThat(decoded.get(0).get("service")).isInstanceOfSatisfying(ServiceId.class,
                id -> assertThat(id.name()).isEqualTo("orders"));
        }

        final int empty = encoder.encodeDirectoryUpdate(buffer, 0, 3, 4L, 0L, true, List.of());
        assertFields(decodeOk(buffer, 0, empty), fields(
            "templateId", WireFormat.DIRECTORY_UPDATE, "version", WireFormat.SCHEMA_VERSION, "frameLength", empty,
            "incarnation", 4L, "directoryVersion", 0L, "nodeId", 3, "snapshot", true, "entries", List.of()));
    }

    @Test
    void directoryUpdateWithTheMostEntries()
    {
        final List<DirectoryEntry> entries = new ArrayList<>(WireFormat.MAX_GROUP_ENTRIES);
        final SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < WireFormat.MAX_GROUP_ENTRIES; i++)
        {
            entries.add(new DirectoryEntry(FrameSamples.service(random.nextLong(), random.nextLong()),
                ActorId.fromRaw(random.nextLong(), random.nextLong() & ~FrameSamples.SERVICE_BIT),
                (i & 1) == 0 ? DirectoryOp.REGISTER : DirectoryOp.UNREGISTER));
        }
        final UnsafeBuffer out = new UnsafeBuffer(new byte[WireFormat.HEADER_LENGTH +
            DirectoryUpdateDecoder.BLOCK_LENGTH + WireFormat.GROUP_HEADER_LENGTH +
            DirectoryUpdateDecoder.EntriesDecoder.sbeBlockLength() * WireFormat.MAX_GROUP_ENTRIES]);

        final int length = encoder.encodeDirectoryUpdate(out, 0, 1, 2L, 3L, false, entries);

        assertThat(length).isEqualTo(out.capacity()).isLessThanOrEqualTo(WireFormat.DEFAULT_MAX_FRAME_BYTES);
        assertFields(decodeOk(out, 0, length), fields(
            "templateId", WireFormat.DIRECTORY_UPDATE, "version", WireFormat.SCHEMA_VERSION, "frameLength", length,
            "incarnation", 2L, "directoryVersion", 3L, "nodeId", 1, "snapshot", false,
            "entries", directoryEntries(entries)));

        entries.add(entries.get(0));
        assertThatThrownBy(() -> encoder.encodeDirectoryUpdate(new UnsafeBuffer(new byte[4 << 20]), 0, 1, 2L, 3L, false,
            entries))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0..65534");
        assertThatThrownBy(() -> encoder.encodeDirectoryUpdate(buffer, 0, 1, 2L, 3L, false,
            List.of(new DirectoryEntry(ServiceId.of(1, "s"), SENDER, DirectoryOp.UNKNOWN))))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("UNKNOWN");
    }

    @ParameterizedTest
    @EnumSource(value = GoodbyeReason.class, names = "UNKNOWN", mode = EnumSource.Mode.EXCLUDE)
    void goodbyeForEveryReason(final GoodbyeReason reason)
    {
        final int length = encoder.encodeGoodbye(buffer, 0, 8, 9L, reason, "bye ✓");

        assertFields(decodeOk(buffer, 0, length), goodbyeFields(length, 8, 9L, reason, "bye ✓"));
    }

    @Test
    void goodbyeWithNullEmptyAndLongestDetail()
    {
        final String longest = "ü".repeat(WireFormat.MAX_DETAIL_BYTES / 2);

        int length = encoder.encodeGoodbye(buffer, 0, Integer.MAX_VALUE, Long.MIN_VALUE, GoodbyeReason.TIMEOUT, null);
        assertThat(length)
            .isEqualTo(WireFormat.HEADER_LENGTH + GoodbyeDecoder.BLOCK_LENGTH + WireFormat.VAR_DATA_HEADER_LENGTH);
        assertFields(decodeOk(buffer, 0, length),
            goodbyeFields(length, Integer.MAX_VALUE, Long.MIN_VALUE, GoodbyeReason.TIMEOUT, ""));
        length = encoder.encodeGoodbye(buffer, 0, 1, 2L, GoodbyeReason.RESTART, "");
        assertFields(decodeOk(buffer, 0, length), goodbyeFields(length, 1, 2L, GoodbyeReason.RESTART, ""));
        length = encoder.encodeGoodbye(buffer, 0, 1, 2L, GoodbyeReason.REFUSED, longest);
        assertFields(decodeOk(buffer, 0, length), goodbyeFields(length, 1, 2L, GoodbyeReason.REFUSED, longest));

        assertThatThrownBy(() -> encoder.encodeGoodbye(buffer, 0, 1, 2L, GoodbyeReason.REFUSED, longest + "!"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("detail is 1025 bytes");
        assertThatThrownBy(() -> encoder.encodeGoodbye(buffer, 0, 1, 2L, GoodbyeReason.UNKNOWN, null))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("UNKNOWN");
    }

    @Test
    void everyTemplateBackToBackInOneBufferCountsOneOkEach()
    {
        int offset = 0;
        final int[] offsets = new int[FrameSamples.TEMPLATES.length];
        final int[] lengths = new int[FrameSamples.TEMPLATES.length];
        for (int i = 0; i < FrameSamples.TEMPLATES.length; i++)
        {
            final byte[] frame = FrameSamples.sample(FrameSamples.TEMPLATES[i]);
            buffer.putBytes(offset, frame);
            offsets[i] = offset;
            lengths[i] = frame.length;
            offset += frame.length;
        }

        for (int i = 0; i < FrameSamples.TEMPLATES.length; i++)
        {
            assertThat(decoder.decode(buffer, offsets[i], lengths[i])).isEqualTo(FrameResult.OK);
            assertThat(handler.last().get("templateId")).isEqualTo(FrameSamples.TEMPLATES[i]);
        }

        assertThat(decoder.count(FrameResult.OK)).isEqualTo(FrameSamples.TEMPLATES.length);
        assertThat(decoder.rejectedCount()).isZero();
        for (final FrameResult result : FrameResult.values())
        {
            if (result != FrameResult.OK)
            {
                assertThat(decoder.count(result)).as(result.name()).isZero();
            }
        }
    }

    private Map<String, Object> decodeOk(final DirectBuffer source, final int offset, final int length)
    {
        final long okBefore = decoder.count(FrameResult.OK);
        final int callsBefore = handler.calls();

        assertThat(decoder.decode(source, offset, length)).isEqualTo(FrameResult.OK);

        assertThat(decoder.count(FrameResult.OK)).isEqualTo(okBefore + 1);
        assertThat(handler.readFailures).isEmpty();
        assertThat(handler.calls()).isEqualTo(callsBefore + 1);
        return handler.last();
    }

    /** Same keys in the same order, and each value equal (arrays by content). */
    static void assertFields(final Map<String, Object> actual, final Map<String, Object> expected)
    {
        assertThat(actual.keySet()).containsExactlyElementsOf(expected.keySet());
        for (final Map.Entry<String, Object> entry : expected.entrySet())
        {
            assertThat(actual.get(entry.getKey())).as(entry.getKey()).isEqualTo(entry.getValue());
        }
    }

    static Map<String, Object> fields(final Object... keysAndValues)
    {
        final Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2)
        {
            map.put((String)keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    static Map<String, Object> envelopeFields(
        final int frameLength, final ActorId recipient, final ActorId sender, final int eventType, final int flags,
        final long cookie, final int accountOwnerNode, final long accountId, final int cost, final byte[] payload)
    {
        return fields("templateId", WireFormat.ENVELOPE, "version", WireFormat.SCHEMA_VERSION, "frameLength",
            frameLength, "recipientRaw1", recipient.raw1(), "recipientRaw2", recipient.raw2(),
            "senderRaw1", sender.raw1(), "senderRaw2", sender.raw2(), "recipient", recipient, "sender", sender,
            "cookie", cookie, "accountId", accountId, "eventType", eventType, "flags", flags,
            "accountOwnerNode", accountOwnerNode, "cost", cost, "payload", payload);
    }

    static Map<String, Object> handshakeFields(final int frameLength, final Handshake step)
    {
        return fields("templateId", WireFormat.HANDSHAKE, "version", WireFormat.SCHEMA_VERSION, "frameLength",
            frameLength, "incarnation", step.incarnation(), "peerIncarnation", step.peerIncarnation(), "nodeId",
            step.nodeId(), "peerNodeId", step.peerNodeId(), "minProtocolVersion", step.minProtocolVersion(),
            "maxProtocolVersion", step.maxProtocolVersion(), "phase", step.phase(), "clusterId", step.clusterId(),
            "challenge", step.challenge(), "proof", step.proof(), "detail", step.detail(),
            "protection", step.protection(), "echo", step.echo() == null ? new byte[0] : step.echo());
        // (the type table is checked through RecordingFrameHandler.handshakeTypes)
    }

    static Map<String, Object> goodbyeFields(
        final int frameLength, final int nodeId, final long incarnation, final GoodbyeReason reason,
        final String detail)
    {
        return fields("templateId", WireFormat.GOODBYE, "version", WireFormat.SCHEMA_VERSION, "frameLength",
            frameLength, "incarnation", incarnation, "nodeId", nodeId, "reason", reason, "detail", detail);
    }

    static List<Map<String, Object>> directoryEntries(final List<DirectoryEntry> entries)
    {
        final List<Map<String, Object>> list = new ArrayList<>(entries.size());
        for (final DirectoryEntry entry : entries)
        {
            list.add(FrameSnapshots.directoryEntry(entry.service(), entry.actor(), entry.op()));
        }
        return list;
    }

    private static Handshake handshake(final String clusterId, final byte[] challenge, final byte[] proof,
        final String detail)
    {
        return new Handshake(HandshakePhase.HELLO, clusterId, 1, 1L, 2, 0L, 1, 1, challenge, proof, detail);
    }

    static byte[] randomBytes(final int length, final long seed)
    {
        final byte[] bytes = new byte[length];
        final SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < length; i++)
        {
            bytes[i] = (byte)random.nextInt();
        }
        return bytes;
    }
}
