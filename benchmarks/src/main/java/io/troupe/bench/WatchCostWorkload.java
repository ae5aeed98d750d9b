package io.troupe.bench;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import io.troupe.actor.Terminated;
import io.troupe.interconnect.IdleMode;
import io.troupe.interconnect.Interconnect;

import java.lang.ref.Reference;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * {@code watch.cost}: what death watch costs. Three figures, each from a fixed count:
 * <ol>
 *   <li>{@code watch.heap-per-watch}: M watchers each watch K idle actors of the same node (a parent watching its
 *       children); the live heap (settled by {@link HeapGauge}) after every watch is held, less the heap before any,
 *       over M×K. It holds both sides: the watcher's entry and the watched actor's.</li>
 *   <li>{@code watch.terminated-rate}: those M×K actors are stopped by the system from the main thread; Terminated
 *       notices handled per second, from the first stop to the last notice.</li>
 *   <li>{@code watch.node-stopped-ms}: two nodes in this process over Aeron on loopback; one actor of node 1
 *       watches R actors of node 2, which then shuts down cleanly; milliseconds from the start of its shutdown to
 *       the last of the R notices at node 1 (its goodbye ends every watch of its actors at once).</li>
 * </ol>
 * {@code --warmup} and {@code --seconds} do not apply.
 */
final class WatchCostWorkload implements Workload
{
    private static final String WATCHERS = "watchers";
    private static final String PER_WATCHER = "per-watcher";
    private static final String REMOTE = "remote";
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(120);

    @Override
    public String name()
    {
        return "watch.cost";
    }

    @Override
    public List<String> options()
    {
        return List.of(WATCHERS, PER_WATCHER, REMOTE);
    }

    @Override
    public String usage()
    {
        return "  watch.cost [--watchers M] [--per-watcher K] [--remote R]\n" +
            "                                 M actors (default 1000) each watch K others (default 100): heap per\n" +
            "                                 watch and Terminated notices per second when those are stopped; an\n" +
            "                                 actor watching R actors (default 1000) of a node that shuts down: ms\n" +
            "                                 to the last notice; --warmup/--seconds are ignored";
    }

    /** Watches the ids it is sent and counts the Terminated notices it receives. */
    private static final class Watcher implements Behavior
    {
        private final AtomicLong terminated;

        Watcher(final AtomicLong terminated)
        {
            this.terminated = terminated;
        }

        @Override
        public void receive(final ActorContext ctx, final Envelope envelope)
        {
            final Object event = envelope.event();
            if (event instanceof ActorId[] targets)
            {
                for (final ActorId target : targets)
                {
                    ctx.watch(target);
                }
            }
            else if (event instanceof Terminated)
            {
                terminated.incrementAndGet();
            }
        }
    }

    @Override
    public void run(final Options options) throws InterruptedException
    {
        final int watchers = (int)options.count(WATCHERS, 1000, 1, 1_000_000);
        final int perWatcher = (int)options.count(PER_WATCHER, 100, 1, 100_000);
        final int remote = (int)options.count(REMOTE, 1000, 1, 1_000_000);
        Report.progress("watch.cost: watchers=%d per-watcher=%d remote=%d threads=%d", watchers, perWatcher, remote,
            options.threads());
        local(options.threads(), watchers, perWatcher);
        nodeStopped(remote);
    }

    private static void local(final int threads, final int watchers, final int perWatcher) throws InterruptedException
    {
        final long watches = (long)watchers * perWatcher;
        final ActorSystem system = BenchSystems.start(threads);
        try
        {
            final AtomicLong terminated = new AtomicLong();
            final ActorId[] watcherIds = new ActorId[watchers];
            final ActorId[][] targets = new ActorId[watchers][perWatcher];
            for (int w = 0; w < watchers; w++)
            {
                watcherIds[w] = system.register(new Watcher(terminated));
                for (int t = 0; t < perWatcher; t++)
                {
                    targets[w][t] = system.register(new IdleActor());
                }
            }
            final long beforeBytes = HeapGauge.settledUsedBytes();
            for (int w = 0; w < watchers; w++)
            {
                system.send(watcherIds[w], targets[w]);
            }
            await(() -> system.counters().watchersHeld(), watches, "every watch held");
            final long afterBytes = HeapGauge.settledUsedBytes();
            Reference.reachabilityFence(targets);
            Report.progress("  used heap: before=%d after=%d bytes for %d watches", beforeBytes, afterBytes, watches);
            Report.result("watch.heap-per-watch", (afterBytes - beforeBytes) / (double)watches, "bytes");

            final long startNs = System.nanoTime();
            for (final ActorId[] mine : targets)
            {
                for (final ActorId target : mine)
                {
                    system.stop(target);
                }
            }
            await(terminated::get, watches, "every Terminated handled");
            final long elapsedNs = System.nanoTime() - startNs;
            Report.result("watch.terminated-rate", watches * 1e9 / elapsedNs, "notices/s");
        }
        finally
        {
            system.close();
        }
    }

    private static void nodeStopped(final int remote) throws InterruptedException
    {
        final int portOne = RemoteNodes.freeUdpPort(0);
        final int portTwo = RemoteNodes.freeUdpPort(portOne);
        final String clusterId = RemoteNodes.clusterId(portOne, portTwo);
        final ActorSystem one = BenchSystems.start(1, RemoteNodes.DRIVER_NODE);
        ActorSystem two = BenchSystems.start(1, RemoteNodes.PEER_NODE);
        Interconnect oneNet = null;
        Interconnect twoNet = null;
        try
        {
            oneNet = RemoteNodes.start(one, clusterId, portOne, RemoteNodes.PEER_NODE, portTwo, IdleMode.BACKOFF);
            twoNet = RemoteNodes.start(two, clusterId, portTwo, RemoteNodes.DRIVER_NODE, portOne, IdleMode.BACKOFF);
            final Interconnect oneConnected = oneNet;
            final Interconnect twoConnected = twoNet;
            await(() -> oneConnected.isConnected(RemoteNodes.PEER_NODE) &&
                twoConnected.isConnected(RemoteNodes.DRIVER_NODE) ? 1 : 0, 1, "the session up");
            final ActorId[] targets = new ActorId[remote];
            for (int i = 0; i < remote; i++)
            {
                targets[i] = two.register(new IdleActor()).onNode(RemoteNodes.PEER_NODE);
            }
            final AtomicLong terminated = new AtomicLong();
            final ActorId watcher = one.register(new Watcher(terminated));
            one.send(watcher, targets);
            final ActorSystem twoWatched = two;
            await(() -> twoWatched.counters().watchersHeld(), remote, "node 2 holds every watch");

            final long startNs = System.nanoTime();
            twoNet.close();
            twoNet = null;
            two.close();
            two = null;
            await(terminated::get, remote, "every Terminated at node 1");
            Report.result("watch.node-stopped-ms", (System.nanoTime() - startNs) / 1e6, "ms", 2);
        }
        finally
        {
            if (twoNet != null)
            {
                twoNet.close();
            }
            if (two != null)
            {
                two.close();
            }
            if (oneNet != null)
            {
                oneNet.close();
            }
            one.close();
        }
    }

    private static void await(final LongSupplier value, final long target, final String what)
        throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + WAIT_NS;
        while (value.getAsLong() < target)
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new IllegalStateException("watch.cost: not " + what + " within 120 s: " + value.getAsLong() +
                    " of " + target);
            }
            Thread.sleep(1);
        }
    }
}
