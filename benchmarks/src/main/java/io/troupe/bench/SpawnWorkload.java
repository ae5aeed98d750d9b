package io.troupe.bench;

import io.troupe.actor.ActorSystem;

import java.lang.ref.Reference;
import java.util.List;

/**
 * {@code local.spawn}: measures how fast the main thread registers idle actors and how much live heap each
 * registered actor costs.
 *
 * <p>A warm-up round registers N actors in a separate system, which is then closed, so the JIT is warm without
 * reusing mailbox slots. The measured round starts a fresh system, forces GC until the used heap settles and
 * records it, registers N actors (each with its own {@link IdleActor}; the returned ids are dropped) timing
 * the loop with {@link System#nanoTime()}, then forces GC again with the system (and nothing else) reachable.
 * Figures: actors registered per second, and (used heap after - before) / N.
 *
 * <p>{@code --warmup} and {@code --seconds} do not apply: the work is a fixed count, not a time window. They
 * are accepted and ignored so that one set of options can be passed to every workload.
 */
final class SpawnWorkload implements Workload
{
    private static final String ACTORS = "actors";
    private static final long DEFAULT_ACTORS = 1_000_000;
    private static final long MAX_ACTORS = 100_000_000;

    @Override
    public String name()
    {
        return "local.spawn";
    }

    @Override
    public List<String> options()
    {
        return List.of(ACTORS);
    }

    @Override
    public String usage()
    {
        return "  local.spawn [--actors N]       registers N idle actors (default 1000000); prints actors per " +
            "second\n" +
            "                                 and heap bytes per actor; --warmup/--seconds are ignored";
    }

    @Override
    public void run(final Options options) throws InterruptedException
    {
        final long actors = options.count(ACTORS, DEFAULT_ACTORS, 1, MAX_ACTORS);
        final int threads = options.threads();
        if (options.has(Options.WARMUP) || options.has(Options.SECONDS))
        {
            Report.progress("local.spawn: --warmup/--seconds do not apply to a fixed count; ignored");
        }
        Report.progress("local.spawn: actors=%d threads=%d", actors, threads);

        try (ActorSystem warmup = BenchSystems.start(threads))
        {
            final long elapsedNs = registerAll(warmup, actors);
            Report.progress("  warm-up round: %.1f actors/s", actors * 1e9 / elapsedNs);
        }

        final ActorSystem system = BenchSystems.start(threads);
        try
        {
            final long beforeBytes = HeapGauge.settledUsedBytes();
            final long elapsedNs = registerAll(system, actors);
            final long afterBytes = HeapGauge.settledUsedBytes();
            Reference.reachabilityFence(system);
            Report.progress("  used heap: before=%d after=%d bytes", beforeBytes, afterBytes);
            Report.result("local.spawn.rate", actors * 1e9 / elapsedNs, "actors/s");
            Report.result("local.spawn.heap-per-actor", (afterBytes - beforeBytes) / (double)actors, "bytes");
        }
        finally
        {
            system.close();
        }
    }

    private static long registerAll(final ActorSystem system, final long actors)
    {
        final long startNs = System.nanoTime();
        for (long i = 0; i < actors; i++)
        {
            system.register(new IdleActor());
        }
        return System.nanoTime() - startNs;
    }
}
