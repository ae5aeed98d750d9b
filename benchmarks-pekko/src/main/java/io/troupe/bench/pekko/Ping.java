package io.troupe.bench.pekko;

/**
 * {@code remote.rtt}'s request, echoed back unchanged as the response. 8 bytes on the wire.
 *
 * @param sentNs {@link System#nanoTime()} of the measuring node when the request was sent.
 */
record Ping(long sentNs) implements EchoMessage, PingerMessage
{
}
