package io.troupe.bench.pekko;

/**
 * What the remote chunk sink has counted, the answer to a {@link TallyRequest}: read by the driver at the edges
 * of the measurement window. 24 bytes on the wire.
 *
 * @param received   chunks received so far.
 * @param outOfOrder chunks whose seq was not the one expected (lost, duplicated or reordered messages).
 * @param atNs       the sink's {@link System#nanoTime()} when it answered.
 */
record Tally(long received, long outOfOrder, long atNs)
{
}
