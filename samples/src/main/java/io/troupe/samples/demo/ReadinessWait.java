package io.troupe.samples.demo;

import io.troupe.node.counters.CountersFileReader;
import io.troupe.node.local.LocalCluster;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Waits until every node of the demo says it is ready in its counters file (its directory replica open, a member
 * UP), as {@code troupe status --check} reads it: a workload started before that would share the two cores with
 * nodes still opening their replicas and measure them, not the cluster.
 */
final class ReadinessWait
{
    private static final long POLL_MS = 20;

    private ReadinessWait()
    {
    }

    /**
     * @param cluster the demo's cluster (nodes 1..size, each with a counters file under its data directory).
     * @param timeout how long every node may take.
     * @throws ClusterDemo.DemoFailure if a node is not ready in time, saying why it is not.
     * @throws InterruptedException    if interrupted while waiting.
     */
    static void await(final LocalCluster cluster, final Duration timeout) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        final CountersFileReader[] files = new CountersFileReader[cluster.size()];
        int node = 1;
        while (node <= files.length)
        {
            if (files[node - 1] == null)
            {
                files[node - 1] = CountersFileReader.open(cluster.dataDir(node));
            }
            final String readiness = files[node - 1].readiness();
            if (readiness.startsWith("ready"))
            {
                node++;
                continue;
            }
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new ClusterDemo.DemoFailure("node " + node + " was not ready after " + timeout.toSeconds() +
                    " s: \"" + readiness + "\"");
            }
            TimeUnit.MILLISECONDS.sleep(POLL_MS);
        }
    }
}
