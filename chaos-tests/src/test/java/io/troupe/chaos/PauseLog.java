package io.troupe.chaos;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a node JVM's unified GC and safepoint log ({@code -Xlog:gc,safepoint:file=...:uptime}) for a failure report:
 * the longest time the JVM stood still, and how many stops were long enough to matter to the failure detector.
 */
final class PauseLog
{
    /** A stop at least this long is counted: a tenth of the default failure timeout. */
    static final double LONG_MS = 150;
    private static final Pattern UPTIME = Pattern.compile("^\\[(\\d+[.,]\\d+)s]");
    /** {@code Safepoint "G1CollectForAllocation", Time since last: 1 ns, Reaching safepoint: 2 ns, ... Total: 3 ns}. */
    private static final Pattern SAFEPOINT = Pattern.compile("Safepoint \"([^\"]+)\".*Total: (\\d+) ns");
    /** {@code GC(3) Pause Young (Normal) (G1 Evacuation Pause) 20M->5M(192M) 3.456ms}. */
    private static final Pattern GC_PAUSE = Pattern.compile(
        "(GC\\(\\d+\\) Pause .*?) \\d+[KMG]->.* (\\d+[.,]\\d+)ms$");

    private PauseLog()
    {
    }

    /**
     * Summarises a pause log.
     *
     * @param lines the log's lines.
     * @return e.g. {@code longest stop 1203.4 ms at 17.2 s (G1CollectForAllocation); 2 stops >= 150 ms; longest
     * GC pause 1180.2 ms (GC(12) Pause Full)}.
     */
    static String summary(final List<String> lines)
    {
        double longestStopMs = 0;
        String longestStop = "none";
        int longStops = 0;
        double longestGcMs = 0;
        String longestGc = "none";
        for (final String line : lines)
        {
            final Matcher safepoint = SAFEPOINT.matcher(line);
            if (safepoint.find())
            {
                final double ms = Long.parseLong(safepoint.group(2)) / 1e6;
                longStops += ms >= LONG_MS ? 1 : 0;
                if (ms > longestStopMs)
                {
                    longestStopMs = ms;
                    longestStop = String.format(Locale.ROOT, "%.1f ms at %s s (%s)", ms, uptime(line),
                        safepoint.group(1));
                }
                continue;
            }
            final Matcher gc = GC_PAUSE.matcher(line);
            if (gc.find())
            {
                final double ms = Double.parseDouble(gc.group(2).replace(',', '.'));
                if (ms > longestGcMs)
                {
                    longestGcMs = ms;
                    longestGc = String.format(Locale.ROOT, "%.1f ms at %s s (%s)", ms, uptime(line),
                        gc.group(1).trim());
                }
            }
        }
        return "longest stop " + longestStop + "; " + longStops + " stops >= " + (long)LONG_MS + " ms; longest GC " +
            "pause " + longestGc;
    }

    private static String uptime(final String line)
    {
        final Matcher uptime = UPTIME.matcher(line);
        return uptime.find() ? uptime.group(1).replace(',', '.') : "?";
    }
}
