package io.troupe.serialization.wire;

import io.troupe.actor.ActorId;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The client protocol's packing of frames into a data message, and its endpoint check. */
class ClientProtocolTest
{
    private static final ActorId TO = ActorId.of(3, 7, 1);
    private final FrameEncoder encoder = new FrameEncoder();

    private int frame(final UnsafeBuffer buffer, final int at, final long cookie, final byte[] payload)
    {
        final int payloadAt = encoder.beginEnvelope(buffer, at, TO, ActorId.NONE, 0x10000001, 0, cookie, 0, 0L, 0, null,
            payload.length);
        buffer.putBytes(payloadAt, payload);
        return payloadAt + payload.length - at;
    }

    private static List<String> unpack(final UnsafeBuffer message, final int length, final boolean[] wellFormed)
    {
        final List<String> frames = new ArrayList<>();
        final EnvelopeFrameReader reader = new EnvelopeFrameReader(frames);
        wellFormed[0] = ClientProtocol.unpack(message, 0, length, new UnsafeBuffer(new byte[512]), reader::read);
        return frames;
    }

    @Test
    void compactFramesStandForTheLastFullOneWithTheirOwnCookieAndPayload()
    {
        final UnsafeBuffer message = new UnsafeBuffer(new byte[1024]);
        final UnsafeBuffer scratch = new UnsafeBuffer(new byte[256]);
        int at = 0;
        final int first = frame(message, at + 4, 0L, new byte[] {1, 2});
        ClientProtocol.putLength(message, at, first);
        final int base = at + 4;
        at += 4 + first;
        for (int i = 1; i <= 3; i++)
        {
            final int full = frame(scratch, 0, i, new byte[] {(byte)i, (byte)i, (byte)i});
            assertThat(EnvelopeCompaction.repeatsHeader(scratch, 0, message, base)).isTrue();
            final int compact = EnvelopeCompaction.writeCompact(message, at + 4, scratch, 0, full);
            ClientProtocol.putLength(message, at, compact | ClientProtocol.COMPACT_FLAG);
            at += 4 + compact;
        }
        final boolean[] ok = new boolean[1];

        final List<String> frames = unpack(message, at, ok);

        assertThat(ok[0]).isTrue();
        assertThat(frames).containsExactly("cookie 0 payload [1, 2]", "cookie 1 payload [1, 1, 1]",
            "cookie 2 payload [2, 2, 2]", "cookie 3 payload [3, 3, 3]");
    }

    @Test
    void aCompactFrameWithNoBaseOrAnEntryLongerThanTheMessageIsMalformed()
    {
        final UnsafeBuffer message = new UnsafeBuffer(new byte[64]);
        ClientProtocol.putLength(message, 0, 12 | ClientProtocol.COMPACT_FLAG);
        final boolean[] ok = new boolean[1];
        assertThat(unpack(message, 16, ok)).isEmpty();
        assertThat(ok[0]).as("compact, nothing before it").isFalse();

        ClientProtocol.putLength(message, 0, 100);
        assertThat(unpack(message, 64, ok)).isEmpty();
        assertThat(ok[0]).as("longer than the message").isFalse();
        ClientProtocol.putLength(message, 0, 0);
        assertThat(unpack(message, 64, ok)).isEmpty();
        assertThat(ok[0]).as("empty").isFalse();
        assertThat(unpack(message, 3, ok)).isEmpty();
        assertThat(ok[0]).as("a prefix cut short").isFalse();
    }

    @Test
    void aHelloEndpointIsAnAddressLiteralAndAPort()
    {
        assertThat(ClientProtocol.isAddressEndpoint("127.0.0.1:40123")).isTrue();
        assertThat(ClientProtocol.isAddressEndpoint("[::1]:40123")).isTrue();
        assertThat(ClientProtocol.isAddressEndpoint("10.0.0.255:1")).isTrue();
        assertThat(ClientProtocol.isAddressEndpoint("localhost:40123")).as("a name is never resolved").isFalse();
        assertThat(ClientProtocol.isAddressEndpoint("10.0.0.256:1")).isFalse();
        assertThat(ClientProtocol.isAddressEndpoint("10.0.0.1:0")).isFalse();
        assertThat(ClientProtocol.isAddressEndpoint("10.0.0.1:65536")).isFalse();
        assertThat(ClientProtocol.isAddressEndpoint("10.0.0.1")).isFalse();
        assertThat(ClientProtocol.isAddressEndpoint(":80")).isFalse();
        assertThat(ClientProtocol.isAddressEndpoint(null)).isFalse();
        assertThat(ClientProtocol.isAddressEndpoint("1".repeat(80) + ":1")).isFalse();
    }

    /** Decodes each frame handed over and describes it. */
    private static final class EnvelopeFrameReader implements FrameHandler
    {
        private final List<String> frames;
        private final FrameDecoder decoder = new FrameDecoder(this);

        EnvelopeFrameReader(final List<String> frames)
        {
            this.frames = frames;
        }

        void read(final DirectBuffer buffer, final int offset, final int length)
        {
            assertThat(decoder.decode(buffer, offset, length)).isEqualTo(FrameResult.OK);
        }

        @Override
        public void onEnvelope(final EnvelopeFrame frame)
        {
            assertThat(frame.recipient()).isEqualTo(TO);
            frames.add("cookie " + frame.cookie() + " payload " + Arrays.toString(frame.payloadBytes()));
        }
    }
}
