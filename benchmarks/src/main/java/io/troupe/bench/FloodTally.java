package io.troupe.bench;

import io.troupe.serialization.FixedLengthCodec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * What {@code flow.flood}'s consumer node has counted: asked with {@link #REQUEST}, answered by the child's
 * flood monitor with the consumer's counts, the node's heap peak and the time on the child's own clock.
 *
 * @param received        chunks the consumer has handled.
 * @param busyNs          time the consumer has spent working on them.
 * @param collapses       times the consumer's memory-tracked mailbox was collapsed by the node's quota.
 * @param collapsedEvents events dropped by those collapses (each reported undelivered to its sender).
 * @param peakHeapBytes   the most heap the child has used since the last {@link FloodPace}.
 * @param atNs            the child's {@link System#nanoTime()} when it answered.
 */
record FloodTally(long received, long busyNs, long collapses, long collapsedEvents, long peakHeapBytes, long atNs)
{
    /** The request: the monitor answers it with its own tally. */
    static final FloodTally REQUEST = new FloodTally(0, 0, 0, 0, 0, 0);

    private static final int FIELDS = 6;

    /** The fixed-size codec: the six fields in declaration order, 8 bytes each (little-endian). */
    static final class Codec extends FixedLengthCodec<FloodTally>
    {
        /** The one instance. */
        static final Codec INSTANCE = new Codec();

        private Codec()
        {
            super(RemoteCodecs.FLOOD_TALLY_TYPE, "bench.FloodTally", FloodTally.class, FIELDS * Long.BYTES);
        }

        @Override
        protected void write(final FloodTally event, final MutableDirectBuffer buffer, final int offset)
        {
            buffer.putLong(offset, event.received(), ORDER);
            buffer.putLong(offset + Long.BYTES, event.busyNs(), ORDER);
            buffer.putLong(offset + 2 * Long.BYTES, event.collapses(), ORDER);
            buffer.putLong(offset + 3 * Long.BYTES, event.collapsedEvents(), ORDER);
            buffer.putLong(offset + 4 * Long.BYTES, event.peakHeapBytes(), ORDER);
            buffer.putLong(offset + 5 * Long.BYTES, event.atNs(), ORDER);
        }

        @Override
        protected FloodTally read(final DirectBuffer buffer, final int offset)
        {
            return new FloodTally(buffer.getLong(offset, ORDER), buffer.getLong(offset + Long.BYTES, ORDER),
                buffer.getLong(offset + 2 * Long.BYTES, ORDER), buffer.getLong(offset + 3 * Long.BYTES, ORDER),
                buffer.getLong(offset + 4 * Long.BYTES, ORDER), buffer.getLong(offset + 5 * Long.BYTES, ORDER));
        }
    }
}
