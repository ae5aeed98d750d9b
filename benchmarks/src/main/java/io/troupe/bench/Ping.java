package io.troupe.bench;

import io.troupe.serialization.FixedLengthCodec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * {@code remote.rtt}'s request, echoed back unchanged as the response.
 *
 * @param sentNs {@link System#nanoTime()} of the measuring node when the request was sent.
 */
record Ping(long sentNs)
{
    /** The fixed-size codec: sentNs at 0 (little-endian), 8 bytes. */
    static final class Codec extends FixedLengthCodec<Ping>
    {
        /** The one instance. */
        static final Codec INSTANCE = new Codec();

        private Codec()
        {
            super(RemoteCodecs.PING_TYPE, "bench.Ping", Ping.class, Long.BYTES);
        }

        @Override
        protected void write(final Ping event, final MutableDirectBuffer buffer, final int offset)
        {
            buffer.putLong(offset, event.sentNs(), ORDER);
        }

        @Override
        protected Ping read(final DirectBuffer buffer, final int offset)
        {
            return new Ping(buffer.getLong(offset, ORDER));
        }
    }
}
