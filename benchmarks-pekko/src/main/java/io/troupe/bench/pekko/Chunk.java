package io.troupe.bench.pekko;

/**
 * The message {@code remote.throughput} streams: a sequence number and {@value #DATA_BYTES} bytes of data, 24
 * bytes on the wire ({@link BenchSerializer}).
 *
 * @param seq  0, 1, 2... per stream.
 * @param data exactly {@value #DATA_BYTES} bytes, never written after the chunk is created.
 */
record Chunk(long seq, byte[] data) implements SinkMessage
{
    /** Bytes of data per chunk. */
    static final int DATA_BYTES = 16;
    /** Encoded size: the seq, then the data. */
    static final int ENCODED_BYTES = Long.BYTES + DATA_BYTES;
}
