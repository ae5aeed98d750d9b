package io.troupe.node;

import io.troupe.actor.ActorSystem;
import io.troupe.serialization.EventCodec;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * {@code troupe node --config FILE}: runs one node until SIGTERM or Ctrl-C, then closes it cleanly from a
 * shutdown hook and exits with 0 (a drain cut short by the deadline is still a clean close: what was left has
 * been reported). A config error prints its message and exits with 2; a node that cannot start (a port in use,
 * say), fails to close, or stops itself because its transport went away (its media driver stopped) exits with 1.
 *
 * <p>An application that runs nodes with services of its own (the samples' demo, say) calls
 * {@link #run(String[], PrintStream, PrintStream, Consumer, EventCodec[])} from its own main, with what to
 * register once the actor system is up and the codecs of its events.
 */
public final class NodeCommand
{
    /** Exit code of a node that stopped cleanly. */
    public static final int EXIT_CLEAN = 0;
    /** Exit code of a node that could not start, or could not close. */
    public static final int EXIT_FAILED = 1;
    /** Exit code of a usage or config error. */
    public static final int EXIT_USAGE = 2;
    /** What the shutdown hook allows beyond the drain deadline and the linger before it gives up on a clean close. */
    private static final long CLOSE_GRACE_MS = 10_000;

    private NodeCommand()
    {
    }

    /**
     * Prints this command's usage lines.
     *
     * @param stream where to.
     */
    public static void usage(final PrintStream stream)
    {
        stream.println("  node --config FILE");
        stream.println("        run one node until SIGTERM or Ctrl-C (every setting is described in " +
            "docs/configuration.md)");
    }

    /**
     * Runs the command: returns only if the node did not start, or, once it has, never (the shutdown hook ends
     * the process).
     *
     * @param args   the options after {@code node}.
     * @param out    where the node says it is up.
     * @param err    where errors go.
     * @param setup  registers the application's actors and services once the actor system is up, before the
     *               node's interconnect starts.
     * @param codecs the codecs of the application's events, beyond Troupe's and the broker's.
     * @return the exit code.
     */
    public static int run(
        final String[] args,
        final PrintStream out,
        final PrintStream err,
        final Consumer<ActorSystem> setup,
        final EventCodec<?>... codecs)
    {
        final Path configFile = configFile(args, err);
        if (configFile == null)
        {
            return EXIT_USAGE;
        }
        final NodeConfig config;
        try
        {
            config = NodeConfigLoader.load(configFile);
        }
        catch (final NodeConfigException ex)
        {
            err.println(ex.getMessage());
            return EXIT_USAGE;
        }
        final Application application;
        try
        {
            application = Application.load(config); // troupe.application: its setup classes, made before the start
        }
        catch (final NodeConfigException ex)
        {
            err.println(ex.getMessage());
            return EXIT_USAGE;
        }
        catch (final NodeStartException ex)
        {
            err.println("troupe node: node " + config.nodeId() + " could not start: " + ex.getMessage());
            return EXIT_FAILED;
        }
        final EventCodec<?>[] allCodecs = Stream.concat(Arrays.stream(codecs),
            Arrays.stream(application.codecs())).toArray(EventCodec<?>[]::new);
        // The hook is there before the node starts: a SIGTERM while it starts (its peers may see it up already) waits
        // for the start to end, then stops the node cleanly, goodbye included.
        final AtomicReference<Node> started = new AtomicReference<>();
        final CountDownLatch startEnded = new CountDownLatch(1);
        final Thread hook = new Thread(() ->
        {
            awaitStart(startEnded);
            final Node running = started.get();
            if (running != null)
            {
                closeAndHalt(running, out, err);
            }
        }, "troupe-node-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        final Node node;
        try
        {
            // the application sets up before clients are admitted and before the node says it is up
            node = Node.start(config, setup, application::setUp, allCodecs);
        }
        catch (final RuntimeException ex)
        {
            startFailed(hook, startEnded);
            // a reason the operator can fix is one line; anything else says what it was
            err.println("troupe node: node " + config.nodeId() + " could not start: " +
                (ex instanceof NodeStartException ? ex.getMessage() : ex.toString()));
            return EXIT_FAILED;
        }
        started.set(node);
        startEnded.countDown();
        out.println("troupe node " + config.nodeId() + " is up (pid " + ProcessHandle.current().pid() + ", bind " +
            config.interconnectConfig().bindHost() + ':' + config.interconnectConfig().bindPort() +
            ")" + (application.names().isEmpty() ? "" : " with " + String.join(", ", application.names())) +
            "; SIGTERM, Ctrl-C or troupe drain stops it");
        out.flush();
        try
        {
            node.awaitClosed();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        // reached when the node closed from within (troupe drain or stop, or its transport gone); after a signal the
        // shutdown hook halts first
        return exitCode(node);
    }

    /** The config file the options name ({@code --config FILE}), or null once the usage error is told. */
    private static Path configFile(final String[] args, final PrintStream err)
    {
        Path configFile = null;
        for (int i = 0; i < args.length; i++)
        {
            if ("--config".equals(args[i]) && i + 1 < args.length)
            {
                configFile = Path.of(args[++i]);
            }
            else
            {
                err.println("troupe node: " + ("--config".equals(args[i]) ? "--config needs a file" :
                    "unknown option '" + args[i] + "'"));
                err.println("usage: troupe node --config FILE");
                return null;
            }
        }
        if (configFile == null)
        {
            err.println("troupe node: --config FILE is required");
            err.println("usage: troupe node --config FILE");
        }
        return configFile;
    }

    /**
     * The exit code of a node that closed: {@link #EXIT_FAILED} if it stopped itself because its transport went
     * away ({@link Node#failure()}), else {@link #EXIT_CLEAN}.
     *
     * @param node the closed node.
     * @return the code.
     */
    static int exitCode(final Node node)
    {
        return node.failure() == null ? EXIT_CLEAN : EXIT_FAILED;
    }

    /** The longest a SIGTERM during the start waits for it to end before the JVM goes. */
    private static final long START_WAIT_MS = 60_000;

    private static void awaitStart(final CountDownLatch startEnded)
    {
        try
        {
            startEnded.await(START_WAIT_MS, TimeUnit.MILLISECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** A start that failed: its hook has nothing to stop (and goes, unless the JVM is already on its way out). */
    private static void startFailed(final Thread hook, final CountDownLatch startEnded)
    {
        startEnded.countDown();
        try
        {
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        catch (final IllegalStateException shuttingDown)
        {
            // the hook runs now and finds no node
        }
    }

    /**
     * The shutdown hook: closes the node, then halts with the node's own exit code. A JVM that SIGTERM ended
     * would otherwise exit with 143 even after a clean shutdown, and a service manager would count that as a
     * failure. A watchdog halts with {@link #EXIT_FAILED} if the close hangs well past its deadlines (the drain's
     * and the interconnect's linger).
     */
    private static void closeAndHalt(final Node node, final PrintStream out, final PrintStream err)
    {
        final long limitMs = node.config().shutdownTimeout().toMillis() +
            node.config().interconnectConfig().failureTimeout().toMillis() + CLOSE_GRACE_MS;
        final Thread watchdog = new Thread(() ->
        {
            try
            {
                Thread.sleep(limitMs);
                err.println("troupe node: node " + node.nodeId() + " did not close within " + limitMs + " ms; halting");
                err.flush();
                Runtime.getRuntime().halt(EXIT_FAILED);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }, "troupe-node-shutdown-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        final long startNs = System.nanoTime();
        int exitCode = EXIT_FAILED;
        try
        {
            node.close();
            exitCode = exitCode(node);
            if (node.failure() != null)
            {
                err.println("troupe node: node " + node.nodeId() + " stopped itself: " + node.failure());
            }
            out.println("troupe node " + node.nodeId() + " stopped in " +
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs) + " ms" +
                (node.drained() ? "" : " (the drain deadline passed)"));
        }
        catch (final RuntimeException ex)
        {
            err.println("troupe node: node " + node.nodeId() + " failed to close cleanly: " + ex);
        }
        finally
        {
            out.flush();
            err.flush();
            System.out.flush();
            System.err.flush();
            Runtime.getRuntime().halt(exitCode);
        }
    }
}
