package io.troupe.node.counters;

/**
 * One distinct error from a node's error log.
 *
 * @param count        how often it happened.
 * @param firstEpochMs when first, ms since the epoch.
 * @param lastEpochMs  when last, ms since the epoch.
 * @param text         the error with its stack trace (and causes), as recorded the first time.
 */
public record ErrorRecord(int count, long firstEpochMs, long lastEpochMs, String text)
{
    /**
     * The first line of the text: what failed.
     *
     * @return the line.
     */
    public String summary()
    {
        final int end = text.indexOf('\n');
        return end < 0 ? text : text.substring(0, end).strip();
    }
}
