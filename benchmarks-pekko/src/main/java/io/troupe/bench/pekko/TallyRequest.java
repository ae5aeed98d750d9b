package io.troupe.bench.pekko;

import org.apache.pekko.actor.typed.ActorRef;

/**
 * Asks the chunk sink for its {@link Tally}. Typed Pekko has no sender: the request names where the answer goes
 * (the ask pattern's temporary actor). Sent twice per run, so its size (the reference as a string) does not
 * matter.
 *
 * @param replyTo where the tally goes.
 */
record TallyRequest(ActorRef<Tally> replyTo) implements SinkMessage
{
}
