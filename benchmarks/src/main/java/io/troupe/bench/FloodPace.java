package io.troupe.bench;

import io.troupe.serialization.FixedLengthCodec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * {@code flow.flood}'s command to the child's flood monitor: from now on the consumer spends
 * {@code serviceNs} on every chunk; the child's heap peak starts again. Answered with a {@link FloodTally}.
 *
 * @param serviceNs busy time per chunk, 0 or more.
 */
record FloodPace(long serviceNs)
{
    /** The fixed-size codec: serviceNs at 0 (little-endian), 8 bytes. */
    static final class Codec extends FixedLengthCodec<FloodPace>
    {
        /** The one instance. */
        static final Codec INSTANCE = new Codec();

        private Codec()
        {
            super(RemoteCodecs.FLOOD_PACE_TYPE, "bench.FloodPace", FloodPace.class, Long.BYTES);
        }

        @Override
        protected void write(final FloodPace event, final MutableDirectBuffer buffer, final int offset)
        {
            buffer.putLong(offset, event.serviceNs(), ORDER);
        }

        @Override
        protected FloodPace read(final DirectBuffer buffer, final int offset)
        {
            return new FloodPace(buffer.getLong(offset, ORDER));
        }
    }
}
