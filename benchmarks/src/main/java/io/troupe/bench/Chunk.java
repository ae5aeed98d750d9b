package io.troupe.bench;

import io.troupe.serialization.FixedLengthCodec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The event {@code remote.throughput} streams: a sequence number and {@value #DATA_BYTES} bytes of data, 24
 * bytes on the wire.
 *
 * @param seq  0, 1, 2... per stream.
 * @param data exactly {@value #DATA_BYTES} bytes.
 */
record Chunk(long seq, byte[] data)
{
    /** Bytes of data per chunk. */
    static final int DATA_BYTES = 16;
    /** Encoded payload: the seq, then the data. */
    static final int ENCODED_BYTES = Long.BYTES + DATA_BYTES;

    /** The fixed-size codec: seq at 0 (little-endian), data at 8. */
    static final class Codec extends FixedLengthCodec<Chunk>
    {
        /** The one instance. */
        static final Codec INSTANCE = new Codec();

        private Codec()
        {
            super(RemoteCodecs.CHUNK_TYPE, "bench.Chunk", Chunk.class, ENCODED_BYTES);
        }

        @Override
        protected void write(final Chunk event, final MutableDirectBuffer buffer, final int offset)
        {
            buffer.putLong(offset, event.seq(), ORDER);
            buffer.putBytes(offset + Long.BYTES, event.data(), 0, DATA_BYTES);
        }

        @Override
        protected Chunk read(final DirectBuffer buffer, final int offset)
        {
            final byte[] data = new byte[DATA_BYTES];
            buffer.getBytes(offset + Long.BYTES, data);
            return new Chunk(buffer.getLong(offset, ORDER), data);
        }
    }
}
