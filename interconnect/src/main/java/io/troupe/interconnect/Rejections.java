package io.troupe.interconnect;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What arrived at a node and was dropped, counted by {@link FrameRejection}: by the agent thread for frames and
 * handshake steps, by the media driver's thread for images ({@link ImageGuard}). Any thread may read.
 */
final class Rejections
{
    private final AtomicLongArray counts = new AtomicLongArray(FrameRejection.values().length);

    void count(final FrameRejection reason)
    {
        counts.incrementAndGet(reason.ordinal());
    }

    long get(final FrameRejection reason)
    {
        return counts.get(reason.ordinal());
    }

    /** Everything dropped, but for REFUSEs (which are read, only not trusted). */
    long dropped()
    {
        long sum = 0;
        for (final FrameRejection reason : FrameRejection.values())
        {
            if (reason != FrameRejection.REFUSE_RECEIVED)
            {
                sum += get(reason);
            }
        }
        return sum;
    }
}
