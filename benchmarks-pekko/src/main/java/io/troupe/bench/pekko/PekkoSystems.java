package io.troupe.bench.pekko;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import org.apache.pekko.Version;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;

import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Starts and stops the Pekko typed actor system every workload runs on: the static settings of
 * {@code pekko-bench.conf} (serializers, logging, mailbox) under the default dispatcher the command line asks for
 * ({@link Dispatcher}) and, for the remote workloads, the transport's settings; {@code -Dpekko...} system
 * properties override all of them.
 *
 * <p>Every workload actor runs on the default dispatcher, the one pool whose size is {@code --threads}; Pekko's
 * internal dispatcher (and for remoting Artery's own) keep their defaults unless a workload says otherwise.
 */
final class PekkoSystems
{
    /** {@code --executor fork-join}: Pekko's default, a {@link java.util.concurrent.ForkJoinPool}. */
    static final String FORK_JOIN = "fork-join";
    /** {@code --executor affinity}: Pekko's {@code affinity-pool-executor}, a queue per thread. */
    static final String AFFINITY = "affinity";
    /** Name of every benchmark actor system but the remote workloads' child node's. */
    static final String SYSTEM_NAME = "bench";
    /** Name of the remote workloads' child node's actor system, so that its log lines say which node they are from. */
    static final String PEER_SYSTEM_NAME = "bench-peer";
    /** Thread name prefix of the default dispatcher's threads. */
    static final String DISPATCHER_THREADS = SYSTEM_NAME + "-pekko.actor.default-dispatcher-";

    private static final String RESOURCE = "pekko-bench.conf";
    private static final long TERMINATE_TIMEOUT_S = 30;

    private PekkoSystems()
    {
    }

    /**
     * The default dispatcher's settings.
     *
     * @param threads    threads of the pool: parallelism min and max of either executor.
     * @param executor   {@link #FORK_JOIN} or {@link #AFFINITY}.
     * @param throughput messages an actor handles before its thread moves on to the next actor.
     */
    record Dispatcher(int threads, String executor, int throughput)
    {
        /**
         * The settings as configuration.
         *
         * @return HOCON for {@code pekko.actor.default-dispatcher}.
         */
        String hocon()
        {
            // both executors get the fixed size, so -Dpekko.actor.default-dispatcher.executor=... alone switches
            return String.format(Locale.ROOT, "pekko.actor.default-dispatcher {%n" +
                "  executor = \"%s\"%n" +
                "  throughput = %d%n" +
                "  fork-join-executor { parallelism-min = %d, parallelism-factor = 1.0, parallelism-max = %d }%n" +
                "  affinity-pool-executor { parallelism-min = %d, parallelism-factor = 1.0, parallelism-max = %d }%n" +
                "}%n", FORK_JOIN.equals(executor) ? "fork-join-executor" : "affinity-pool-executor", throughput,
                threads, threads, threads, threads);
        }

        @Override
        public String toString()
        {
            return String.format(Locale.ROOT, "executor=%s threads=%d dispatcher-throughput=%d", executor, threads,
                throughput);
        }
    }

    /**
     * The configuration of one benchmark system.
     *
     * @param dispatcher the default dispatcher's settings.
     * @param extra      further HOCON (a remote node's transport settings), or empty.
     * @return the resolved configuration: system properties, then {@code extra} and the dispatcher, then
     *         {@code pekko-bench.conf}, then Pekko's reference configuration.
     */
    static Config config(final Dispatcher dispatcher, final String extra)
    {
        final Config bench = ConfigFactory.parseResources(PekkoSystems.class.getClassLoader(), RESOURCE);
        if (bench.isEmpty())
        {
            throw new IllegalStateException(RESOURCE + " is missing from the class path");
        }
        return ConfigFactory.load(ConfigFactory.parseString(extra + "\n" + dispatcher.hocon()).withFallback(bench));
    }

    /**
     * Starts a system named {@value #SYSTEM_NAME}.
     *
     * @param guardian the user guardian's behaviour.
     * @param config   from {@link #config}.
     * @param <T>      the guardian's message type.
     * @return the running system.
     */
    static <T> ActorSystem<T> start(final Behavior<T> guardian, final Config config)
    {
        return start(guardian, SYSTEM_NAME, config);
    }

    /**
     * Starts a system.
     *
     * @param guardian the user guardian's behaviour.
     * @param name     the system's name.
     * @param config   from {@link #config}.
     * @param <T>      the guardian's message type.
     * @return the running system.
     */
    static <T> ActorSystem<T> start(final Behavior<T> guardian, final String name, final Config config)
    {
        final ActorSystem<T> system = ActorSystem.create(guardian, name, config);
        final Config actual = system.settings().config();
        Report.progress("  pekko %s: default dispatcher %s throughput=%d, mailbox %s", Version.current(),
            actual.getString("pekko.actor.default-dispatcher.executor"),
            actual.getInt("pekko.actor.default-dispatcher.throughput"),
            actual.getString("pekko.actor.typed.default-mailbox.mailbox-type"));
        return system;
    }

    /**
     * Terminates a system and waits until it has terminated.
     *
     * @param system the system.
     * @throws InterruptedException if interrupted while waiting.
     */
    static void terminate(final ActorSystem<?> system) throws InterruptedException
    {
        system.terminate();
        try
        {
            system.getWhenTerminated().toCompletableFuture().get(TERMINATE_TIMEOUT_S, TimeUnit.SECONDS);
        }
        catch (final ExecutionException | TimeoutException ex)
        {
            Report.progress("  the actor system did not terminate cleanly within %d s: %s", TERMINATE_TIMEOUT_S, ex);
        }
    }
}
