package io.troupe.bench;

import org.HdrHistogram.Histogram;

/**
 * What one {@code broker.overload} client saw in the measurement window: the sojourn of every request that
 * got {@link io.troupe.broker.Go}, and how many got {@link io.troupe.broker.Drop}. Owned by the reader once
 * sent.
 *
 * @param goSojournNs the sojourn times of the matched requests, in ns (clamped to the histogram's highest
 *                    value).
 * @param drops       the dropped requests.
 */
record ClientTally(Histogram goSojournNs, long drops)
{
}
