package io.troupe.chaos;

/** Times read off the ledgers: when a node first saw a peer go or come after some moment. */
final class Timing
{
    private Timing()
    {
    }

    /**
     * The first time at or after {@code sinceMs} that any incarnation of {@code node} logged {@code kind}
     * ({@code C} connected, {@code X} disconnected) for {@code peer}.
     *
     * @return epoch ms, or -1 if it has not.
     */
    static long first(final Ledger ledger, final int node, final String kind, final int peer, final long sinceMs)
    {
        long first = -1;
        for (final Ledger.Line line : ledger.senderLines())
        {
            if (line.node() == node && kind.equals(line.kind()) && line.intField(0) == peer &&
                line.epochMs() >= sinceMs && (first < 0 || line.epochMs() < first))
            {
                first = line.epochMs();
            }
        }
        return first;
    }

    /** Whether {@code node} logged {@code kind} for {@code peer} between the two times. */
    static boolean any(final Ledger ledger, final int node, final String kind, final int peer, final long fromMs,
        final long toMs)
    {
        for (final Ledger.Line line : ledger.senderLines())
        {
            if (line.node() == node && kind.equals(line.kind()) && line.intField(0) == peer &&
                line.epochMs() >= fromMs && line.epochMs() <= toMs)
            {
                return true;
            }
        }
        return false;
    }
}
