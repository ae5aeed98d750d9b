package io.troupe.chaos;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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

    /**
     * The median time from sending to delivery (the sender's {@code S} line to the recipient's {@code D} line; host
     * and containers share a clock) of the events {@code sender} sent between the two times and that were delivered.
     *
     * @return ms, or -1 if none was.
     */
    static long medianLatencyMs(final Ledger ledger, final int sender, final long fromMs, final long toMs)
    {
        final Map<String, Long> sentAt = new HashMap<>();
        for (final Ledger.Line line : ledger.senderLines())
        {
            if (line.node() == sender && "S".equals(line.kind()) && line.epochMs() >= fromMs && line.epochMs() <= toMs)
            {
                sentAt.put(line.incarnation() + "/" + line.intField(0) + "/" + line.longField(1), line.epochMs());
            }
        }
        final List<Long> latencies = new ArrayList<>();
        for (final Ledger.Line line : ledger.receiverLines())
        {
            if (line.intField(0) == sender)
            {
                final Long sent = sentAt.get(line.longField(1) + "/" + line.node() + "/" + line.longField(2));
                if (sent != null)
                {
                    latencies.add(line.epochMs() - sent);
                }
            }
        }
        if (latencies.isEmpty())
        {
            return -1;
        }
        latencies.sort(Long::compare);
        return latencies.get(latencies.size() / 2);
    }
}
