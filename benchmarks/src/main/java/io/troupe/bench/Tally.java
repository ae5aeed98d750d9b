package io.troupe.bench;

import io.troupe.serialization.FixedLengthCodec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * What the remote chunk sink has counted, read by the driver at the edges of the measurement window: asked
 * with an empty tally ({@link #REQUEST}), answered with the sink's counts and the time on its own clock.
 *
 * @param received   chunks received so far.
 * @param outOfOrder chunks whose seq was not the one expected (lost, duplicated or reordered events).
 * @param atNs       the sink's {@link System#nanoTime()} when it answered.
 */
record Tally(long received, long outOfOrder, long atNs)
{
    /** The request: the sink answers it with its own tally. */
    static final Tally REQUEST = new Tally(0, 0, 0);

    /** The fixed-size codec: received at 0, outOfOrder at 8, atNs at 16 (little-endian), 24 bytes. */
    static final class Codec extends FixedLengthCodec<Tally>
    {
        /** The one instance. */
        static final Codec INSTANCE = new Codec();

        private Codec()
        {
            super(RemoteCodecs.TALLY_TYPE, "bench.Tally", Tally.class, 3 * Long.BYTES);
        }

        @Override
        protected void write(final Tally event, final MutableDirectBuffer buffer, final int offset)
        {
            buffer.putLong(offset, event.received(), ORDER);
            buffer.putLong(offset + Long.BYTES, event.outOfOrder(), ORDER);
            buffer.putLong(offset + 2 * Long.BYTES, event.atNs(), ORDER);
        }

        @Override
        protected Tally read(final DirectBuffer buffer, final int offset)
        {
            return new Tally(buffer.getLong(offset, ORDER), buffer.getLong(offset + Long.BYTES, ORDER),
                buffer.getLong(offset + 2 * Long.BYTES, ORDER));
        }
    }
}
