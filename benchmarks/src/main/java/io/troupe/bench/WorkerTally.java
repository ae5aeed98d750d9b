package io.troupe.bench;

/**
 * What one {@code broker.overload} worker did in the measurement window.
 *
 * @param busyNs    time it spent serving within the window, a service that straddles an edge counted only
 *                  for its part inside.
 * @param served    services that ended within the window.
 * @param servedNs  the total length of those services, whole, for their mean.
 * @param drops     its own requests the broker dropped in the whole run (0 expected: its queue does not drop).
 */
record WorkerTally(long busyNs, long served, long servedNs, long drops)
{
}
