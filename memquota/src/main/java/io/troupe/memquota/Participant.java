package io.troupe.memquota;

import java.util.concurrent.CompletionStage;

/**
 * A data structure that holds memory counted against an {@link Account}. The tracker holds participants
 * weakly: one that was garbage-collected counts as freed. Methods are called by the reclaimer thread and
 * must not call back into the tracker while holding locks the participant's own users take.
 */
public interface Participant
{
    /** {@link #oldestDataTimeNs()} when the participant holds no data. */
    long NO_DATA = Long.MAX_VALUE;

    /**
     * Coarse monotonic time (see {@link CoarseClock}) of the oldest data held.
     *
     * @return the time, or {@link #NO_DATA}.
     */
    long oldestDataTimeNs();

    /**
     * Asks the participant to free memory: at least all data at least as old as {@code discardOlderThanNs},
     * and it may stop once {@code bytesWanted} were freed. Must complete promptly: the tracker waits a
     * bounded time, then counts the participant as unresponsive and moves on to others.
     *
     * @param discardOlderThanNs age bound: data this old or older should go.
     * @param bytesWanted        how much the tracker would like freed.
     * @return what the participant did.
     */
    CompletionStage<Reclaimed> reclaim(long discardOlderThanNs, long bytesWanted);
}
