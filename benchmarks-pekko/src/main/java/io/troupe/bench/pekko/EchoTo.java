package io.troupe.bench.pekko;

import org.apache.pekko.actor.typed.ActorRef;

/**
 * Tells the echo where to send its replies: the pinger sends it once, before its first {@link Ping}, on the same
 * association (see {@link AckTo} for why a reference does not travel in every ping).
 *
 * @param pinger the pinger.
 */
record EchoTo(ActorRef<Ping> pinger) implements EchoMessage
{
}
