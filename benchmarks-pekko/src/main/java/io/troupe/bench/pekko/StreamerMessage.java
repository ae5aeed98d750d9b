package io.troupe.bench.pekko;

/** What {@link Streamer} handles: {@link Ack}s from the sink, and its local {@link Streamer.Command}s. */
interface StreamerMessage
{
}
