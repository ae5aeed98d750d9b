package io.troupe.bench.pekko;

/** What {@link Echo} handles: {@link Ping} and {@link EchoTo}. */
interface EchoMessage
{
}
