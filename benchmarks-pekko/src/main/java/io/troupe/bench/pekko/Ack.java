package io.troupe.bench.pekko;

/**
 * {@code remote.throughput}'s acknowledgement: every chunk up to and including {@code seq} has been received.
 * 8 bytes on the wire.
 *
 * @param seq the highest sequence number received.
 */
record Ack(long seq) implements StreamerMessage
{
}
