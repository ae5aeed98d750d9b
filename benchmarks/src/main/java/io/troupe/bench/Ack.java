package io.troupe.bench;

import io.troupe.serialization.FixedLengthCodec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * {@code remote.throughput}'s acknowledgement: every chunk up to and including {@code seq} has been received.
 *
 * @param seq the highest sequence number received.
 */
record Ack(long seq)
{
    /** The fixed-size codec: seq at 0 (little-endian), 8 bytes. */
    static final class Codec extends FixedLengthCodec<Ack>
    {
        /** The one instance. */
        static final Codec INSTANCE = new Codec();

        private Codec()
        {
            super(RemoteCodecs.ACK_TYPE, "bench.Ack", Ack.class, Long.BYTES);
        }

        @Override
        protected void write(final Ack event, final MutableDirectBuffer buffer, final int offset)
        {
            buffer.putLong(offset, event.seq(), ORDER);
        }

        @Override
        protected Ack read(final DirectBuffer buffer, final int offset)
        {
            return new Ack(buffer.getLong(offset, ORDER));
        }
    }
}
