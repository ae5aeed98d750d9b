package io.troupe.bench.pekko;

/** What {@link Pinger} handles: echoed {@link Ping}s and its local {@link Pinger.Command}. */
interface PingerMessage
{
}
