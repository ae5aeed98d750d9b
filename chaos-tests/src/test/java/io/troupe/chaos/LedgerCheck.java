package io.troupe.chaos;

import io.troupe.chaos.workload.ChaosWorkload;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the delivery ledger proves after a run and a quiet period: every tracked event sent ended exactly once, as
 * delivered or {@code Undelivered}; no duplicates; FIFO per (sender incarnation, recipient incarnation); an
 * {@code Undelivered} that is sure ({@code unsure=false}) was really not delivered; nothing sent to a recipient
 * incarnation reached another one (the ticks to a receiver's actor id of the first incarnation a sender knew, too:
 * after that receiver's node restarted they are {@code Undelivered(ACTOR_UNKNOWN)}, counted as
 * {@code to_first_id_actor_unknown}). Events of a sender incarnation that was killed ({@code kill -9}) have nobody left
 * to hear their outcome: the ones not delivered are counted as abandoned, not lost.
 */
final class LedgerCheck
{
    /** An event's identity: sender node and incarnation, recipient node, sequence. */
    private record Key(int sender, long senderIncarnation, int recipient, long seq)
    {
    }

    private final Map<String, Long> figures = new LinkedHashMap<>();
    private final List<String> violations = new ArrayList<>();

    private LedgerCheck()
    {
    }

    /**
     * Checks a ledger.
     *
     * @param ledger the ledger of every node.
     * @param killed the node incarnations the test killed ({@code kill -9}), by node.
     * @return the result.
     */
    static LedgerCheck of(final Ledger ledger, final Map<Integer, Set<Long>> killed)
    {
        final LedgerCheck check = new LedgerCheck();
        check.run(ledger, killed);
        return check;
    }

    private void run(final Ledger ledger, final Map<Integer, Set<Long>> killed)
    {
        final Map<Key, Long> sent = new HashMap<>();
        final Map<Key, List<String>> undelivered = new HashMap<>();
        for (final Ledger.Line line : ledger.senderLines())
        {
            if ("S".equals(line.kind()))
            {
                sent.put(new Key(line.node(), line.incarnation(), line.intField(0), line.longField(1)),
                    line.longField(2));
            }
            else if ("U".equals(line.kind()))
            {
                undelivered.computeIfAbsent(new Key(line.node(), line.incarnation(), line.intField(0),
                    line.longField(1)), k -> new ArrayList<>()).add(line.fields()[2] + "," + line.fields()[3]);
            }
        }
        final Received received = checkReceived(ledger, killed, sent);
        final Map<Key, Integer> delivered = received.delivered();
        long duplicates = 0;
        long lost = 0;
        long abandoned = 0;
        long sure = 0;
        long unsure = 0;
        long deliveredCount = 0;
        long toOldId = 0;
        long toOldIdUnknown = 0;
        final Map<String, Long> reasons = new TreeMap<>();
        for (final Map.Entry<Key, Long> event : sent.entrySet())
        {
            final Key key = event.getKey();
            final int deliveries = delivered.getOrDefault(key, 0);
            final List<String> notices = undelivered.getOrDefault(key, List.of());
            if (deliveries > 1)
            {
                duplicates++;
                violation("delivered " + deliveries + " times: " + key);
            }
            if (notices.size() > 1)
            {
                duplicates++;
                violation("Undelivered " + notices.size() + " times: " + key + " " + notices);
            }
            if (deliveries > 0)
            {
                deliveredCount++;
            }
            if (isToOldId(key))
            {
                toOldId++;
                toOldIdUnknown += notices.stream().filter(notice -> notice.startsWith("ACTOR_UNKNOWN,")).count();
            }
            for (final String notice : notices)
            {
                reasons.merge("undelivered_" + notice.substring(0, notice.indexOf(',')).toLowerCase(Locale.ROOT),
                    1L, Long::sum);
                if (notice.endsWith(",true"))
                {
                    unsure++;
                }
                else
                {
                    sure++;
                    if (deliveries > 0)
                    {
                        violation("Undelivered(" + notice + ", sure) but delivered: " + key);
                    }
                }
            }
            if (deliveries == 0 && notices.isEmpty())
            {
                if (isKilled(killed, key))
                {
                    abandoned++;
                }
                else
                {
                    lost++;
                    violation("lost (neither delivered nor Undelivered): " + key);
                }
            }
        }
        figures.put("sent", (long)sent.size());
        figures.put("delivered", deliveredCount);
        figures.put("undelivered_sure", sure);
        figures.put("undelivered_unsure", unsure);
        figures.put("abandoned_by_killed_sender", abandoned);
        figures.put("lost", lost);
        figures.put("duplicates", duplicates);
        figures.put("reordered", received.reordered());
        figures.put("crossed_incarnations", received.oldToNew());
        figures.put("delivered_unsent", received.deliveredUnsent());
        figures.put("to_first_id", toOldId);
        figures.put("to_first_id_actor_unknown", toOldIdUnknown);
        figures.putAll(reasons);
        figures.put("sessions_ended", sessionsEnded(ledger));
    }

    /** What the receivers' lines show: the deliveries of each event, and how many broke order or incarnation. */
    private record Received(Map<Key, Integer> delivered, long reordered, long oldToNew, long deliveredUnsent)
    {
    }

    /** Counts the deliveries of each event and checks them: FIFO per pair, the right incarnation, really sent. */
    private Received checkReceived(final Ledger ledger, final Map<Integer, Set<Long>> killed, final Map<Key, Long> sent)
    {
        final Map<Key, Integer> delivered = new HashMap<>();
        final Map<String, Long> lastSeq = new HashMap<>();
        long reordered = 0;
        long oldToNew = 0;
        long deliveredUnsent = 0;
        for (final Ledger.Line line : ledger.receiverLines())
        {
            final Key key = new Key(line.intField(0), line.longField(1), line.node(), line.longField(2));
            delivered.merge(key, 1, Integer::sum);
            // the ticks to a receiver's first known actor id are a stream of their own
            final String pair = key.sender() + ":" + key.senderIncarnation() + "->" + line.node() + ":" +
                line.incarnation() + (isToOldId(key) ? " (first id)" : "");
            final Long before = lastSeq.put(pair, key.seq());
            if (before != null && before >= key.seq())
            {
                reordered++;
                violation("reordered: " + pair + " delivered seq " + key.seq() + " after " + before);
            }
            final long expected = line.longField(3);
            if (expected != 0 && expected != line.incarnation())
            {
                oldToNew++;
                violation("crossed incarnations: " + key + " was sent to incarnation " + expected +
                    " and delivered to " + line.incarnation());
            }
            if (!sent.containsKey(key) && !isKilled(killed, key))
            {
                deliveredUnsent++;
                violation("delivered but never sent: " + key);
            }
        }
        return new Received(delivered, reordered, oldToNew, deliveredUnsent);
    }

    /** Sessions that ended while the run went on: an X after a C, per node incarnation and peer. */
    private static long sessionsEnded(final Ledger ledger)
    {
        final Set<String> up = new HashSet<>();
        long ended = 0;
        for (final Ledger.Line line : ledger.senderLines())
        {
            final String link = line.node() + ":" + line.incarnation() + ">" + (line.fields().length > 0 ?
                line.fields()[0] : "");
            if ("C".equals(line.kind()))
            {
                up.add(link);
            }
            else if ("X".equals(line.kind()) && up.remove(link))
            {
                ended++;
            }
        }
        return ended;
    }

    /** Whether the event was a tick to a receiver's actor id of the first incarnation its sender knew. */
    private static boolean isToOldId(final Key key)
    {
        return (key.seq() & ChaosWorkload.OLD_ID_SEQ) != 0;
    }

    private static boolean isKilled(final Map<Integer, Set<Long>> killed, final Key key)
    {
        return killed.getOrDefault(key.sender(), new HashSet<>()).contains(key.senderIncarnation());
    }

    private void violation(final String text)
    {
        violations.add(text);
    }

    /** The figures: sent, delivered, undelivered_sure/unsure, lost, duplicates, reordered, ... */
    Map<String, Long> figures()
    {
        return figures;
    }

    /** What broke the promise, in the order found; empty when the ledger is clean. */
    List<String> violations()
    {
        return violations;
    }
}
