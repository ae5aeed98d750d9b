package io.troupe.bench.pekko;

/** What {@link ChunkSink} handles: {@link Chunk}, {@link AckTo} and {@link TallyRequest}. */
interface SinkMessage
{
}
