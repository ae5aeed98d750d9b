package io.troupe.chaos.workload;

import java.nio.file.Files;
import java.nio.file.Path;

/** When a workload's sender stops: its time is up, or the test wrote the {@code stop} file. */
final class WorkloadEnd
{
    private WorkloadEnd()
    {
    }

    /**
     * Why sending ends now, as the ledger's {@code E} line says it.
     *
     * @return {@code "stopped"} if the stop file exists, {@code "time"} if {@code endNs} has passed, else null.
     */
    static String reason(final long endNs, final Path stopFile)
    {
        if (Files.exists(stopFile))
        {
            return "stopped";
        }
        return System.nanoTime() - endNs > 0 ? "time" : null;
    }
}
