package io.troupe.serialization.wire;

import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Compact envelope frames: which frames may be sent compact, and that the receiver rebuilds them exactly. */
class EnvelopeCompactionTest
{
    private static final ActorId RECIPIENT = ActorId.of(3, 1729, 17);
    private static final ActorId SENDER = ActorId.of(5, 4242, 9);
    private static final int TYPE = 4096 << 16 | 7;

    private final FrameEncoder encoder = new FrameEncoder();
    private final List<EnvelopeFrameCopy> received = new ArrayList<>();
    private final FrameDecoder decoder = new FrameDecoder(frame -> received.add(new EnvelopeFrameCopy(frame)));

    /** What a decoded envelope frame said. */
    private record EnvelopeFrameCopy(ActorId recipient, ActorId sender, int type, int flags, long cookie, int owner,
        long account, int cost, byte[] payload)
    {
        EnvelopeFrameCopy(final EnvelopeFrame frame)
        {
            this(frame.recipient(), frame.sender(), frame.eventType(), frame.flags(), frame.cookie(),
                frame.accountOwnerNode(), frame.accountId(), frame.cost(), frame.payloadBytes());
        }
    }

    private byte[] frame(final ActorId sender, final int flags, final long cookie, final long account,
        final byte[] payload)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        final int length = encoder.encodeEnvelope(buffer, 0,
            new Envelope(RECIPIENT, sender, TYPE, flags, cookie, null, null), 5, account, 3, new UnsafeBuffer(payload),
            0, payload.length);
        return Arrays.copyOf(buffer.byteArray(), length);
    }

    @Test
    void aFrameThatRepeatsTheBaseButForCookieAndPayloadIsRebuiltExactly()
    {
        final byte[] base = frame(SENDER, Envelope.FLAG_TRACK_DELIVERY, 1L, 11L, new byte[] {1, 2, 3});
        final byte[] next = frame(SENDER, Envelope.FLAG_TRACK_DELIVERY, 99L, 11L, new byte[] {9, 8, 7, 6, 5});
        assertThat(EnvelopeCompaction.isBase(new UnsafeBuffer(base), 0, base.length)).isTrue();
        assertThat(EnvelopeCompaction.repeatsHeader(next, base, 0)).isTrue();

        final UnsafeBuffer message = new UnsafeBuffer(new byte[512]);
        final int compactLength = EnvelopeCompaction.writeCompact(message, 10, next, next.length);
        assertThat(compactLength).isEqualTo(EnvelopeCompaction.COMPACT_OVERHEAD + 5)
            .isEqualTo(EnvelopeCompaction.compactLength(next.length));
        assertThat(EnvelopeCompaction.expandedLength(compactLength)).isEqualTo(next.length);

        final UnsafeBuffer expanded = new UnsafeBuffer(new byte[512]);
        final int length = EnvelopeCompaction.expand(new UnsafeBuffer(base), 0, message, 10, compactLength, expanded);
        assertThat(Arrays.copyOf(expanded.byteArray(), length)).isEqualTo(next);
        assertThat(decoder.decode(expanded, 0, length)).isEqualTo(FrameResult.OK);
        assertThat(received).hasSize(1);
        final EnvelopeFrameCopy copy = received.get(0);
        assertThat(copy.recipient()).isEqualTo(RECIPIENT);
        assertThat(copy.sender()).isEqualTo(SENDER);
        assertThat(copy.type()).isEqualTo(TYPE);
        assertThat(copy.flags()).isEqualTo(Envelope.FLAG_TRACK_DELIVERY);
        assertThat(copy.cookie()).isEqualTo(99L);
        assertThat(copy.owner()).isEqualTo(5);
        assertThat(copy.account()).isEqualTo(11L);
        assertThat(copy.cost()).isEqualTo(3);
        assertThat(copy.payload()).containsExactly(9, 8, 7, 6, 5);
    }

    @Test
    void anEmptyPayloadCompactsToItsCookie()
    {
        final byte[] base = frame(SENDER, 0, 1L, 0L, new byte[0]);
        final byte[] next = frame(SENDER, 0, 2L, 0L, new byte[0]);
        assertThat(EnvelopeCompaction.repeatsHeader(next, base, 0)).isTrue();
        final UnsafeBuffer message = new UnsafeBuffer(new byte[64]);
        assertThat(EnvelopeCompaction.writeCompact(message, 0, next, next.length)).isEqualTo(Long.BYTES);
        final UnsafeBuffer expanded = new UnsafeBuffer(new byte[128]);
        final int length = EnvelopeCompaction.expand(new UnsafeBuffer(base), 0, message, 0, Long.BYTES, expanded);
        assertThat(Arrays.copyOf(expanded.byteArray(), length)).isEqualTo(next);
    }

    @Test
    void anyOtherDifferenceInTheHeaderKeepsAFrameWhole()
    {
        final byte[] base = frame(SENDER, 0, 1L, 11L, new byte[] {1});
        assertThat(EnvelopeCompaction.repeatsHeader(frame(ActorId.of(5, 4243, 9), 0, 1L, 11L, new byte[] {1}), base, 0))
            .as("another sender").isFalse();
        assertThat(EnvelopeCompaction.repeatsHeader(frame(SENDER, Envelope.FLAG_TRACK_DELIVERY, 1L, 11L,
            new byte[] {1}), base, 0)).as("other flags").isFalse();
        assertThat(EnvelopeCompaction.repeatsHeader(frame(SENDER, 0, 1L, 12L, new byte[] {1}), base, 0))
            .as("another account").isFalse();
        // the base may sit anywhere in the message
        final byte[] message = new byte[7 + base.length];
        System.arraycopy(base, 0, message, 7, base.length);
        assertThat(EnvelopeCompaction.repeatsHeader(frame(SENDER, 0, 5L, 11L, new byte[] {4, 4}), message, 7)).isTrue();
    }

    @Test
    void onlyAWholeEnvelopeFrameOfThisVersionIsABase()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        final int heartbeat = encoder.encodeHeartbeat(buffer, 0, 1, 2L, 3L, 4L, 0L, 0L);
        assertThat(EnvelopeCompaction.isBase(buffer, 0, heartbeat)).as("a heartbeat").isFalse();

        final byte[] envelope = frame(SENDER, 0, 1L, 0L, new byte[] {1, 2, 3});
        assertThat(EnvelopeCompaction.isBase(new UnsafeBuffer(envelope), 0, envelope.length - 1))
            .as("payload length disagrees with the frame's").isFalse();
        assertThat(EnvelopeCompaction.isBase(new UnsafeBuffer(envelope), 0, EnvelopeCompaction.FIXED_LENGTH - 1))
            .as("shorter than the fixed part").isFalse();
        envelope[6] = 99; // the header's version
        assertThat(EnvelopeCompaction.isBase(new UnsafeBuffer(envelope), 0, envelope.length)).as("another version")
            .isFalse();
    }

    @Test
    void arbitraryCompactBytesNeverThrowFromTheDecoder()
    {
        final byte[] base = frame(SENDER, 0, 1L, 11L, new byte[] {1});
        final Random random = new Random(7);
        final UnsafeBuffer message = new UnsafeBuffer(new byte[300]);
        final UnsafeBuffer expanded = new UnsafeBuffer(new byte[400]);
        for (int i = 0; i < 2_000; i++)
        {
            final int compactLength = Long.BYTES + random.nextInt(200);
            final byte[] garbage = new byte[compactLength];
            random.nextBytes(garbage);
            message.putBytes(0, garbage);
            final int length = EnvelopeCompaction.expand(new UnsafeBuffer(base), 0, message, 0, compactLength,
                expanded);
            assertThat(decoder.decode(expanded, 0, length)).isEqualTo(FrameResult.OK);
        }
        assertThat(received).hasSize(2_000).allSatisfy(copy ->
        {
            assertThat(copy.recipient()).isEqualTo(RECIPIENT);
            assertThat(copy.sender()).isEqualTo(SENDER);
        });
    }
}
