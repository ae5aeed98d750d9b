package io.troupe.bench.pekko;

import org.apache.pekko.actor.typed.ActorRef;

/**
 * Tells the chunk sink where to send its {@link Ack}s: the streamer sends it once, before its first chunk, on the
 * same association, so it arrives first. Typed Pekko has no sender to reply to, and a reference in every chunk
 * would make the 24-byte chunk several times larger; this is the resolved-once reference, as Troupe's streamer
 * uses the sink's own id once it has it.
 *
 * @param streamer the streamer.
 */
record AckTo(ActorRef<Ack> streamer) implements SinkMessage
{
}
