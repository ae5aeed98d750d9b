package io.troupe.bench.pekko;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The other node of a remote workload, in a child process running this same jar:
 * {@code java <this JVM's flags> -cp <this jar> io.troupe.bench.pekko.Main remote.peer ...}, as Troupe's
 * harness does.
 *
 * <p>The child must not outlive the driver. It stops by itself when its stdin reaches end of file, which happens
 * when {@link #close()} closes the pipe and also when the driver dies in any way (even SIGKILL); {@link #close()}
 * then waits for it and destroys it if it does not exit in time, and a shutdown hook destroys it if the driver
 * exits without closing (Ctrl-C, an uncaught exception).
 *
 * <p>The child gets this JVM's own flags ({@link java.lang.management.RuntimeMXBean#getInputArguments()}: heap,
 * GC, {@code -Dpekko...} overrides, JFR...) so that both nodes run alike, plus the {@code --add-exports} Agrona
 * needs (a {@code -cp} launch does not read the jar manifest's). A JFR {@code filename=x.jfr} becomes
 * {@code x-peer.jfr} for the child; debugger agents are not passed on. The child's stderr is this process's
 * stderr; its stdout is copied to this stderr with a {@code [peer] } prefix, so that stdout carries only the
 * driver's RESULT lines. The child says {@value #READY} on stdout once its actors are up.
 *
 * <p>Not thread safe: the driver's main thread owns it.
 */
final class PeerProcess implements AutoCloseable
{
    /** The line the child prints on stdout once its system and actors are up. */
    static final String READY = "remote.peer: ready";

    private static final String ADD_EXPORTS = "java.base/jdk.internal.misc=ALL-UNNAMED";
    private static final String JFR_FLAG = "-XX:StartFlightRecording";
    private static final long STOP_TIMEOUT_S = 15;
    private static final long DESTROY_TIMEOUT_S = 5;

    private final Process process;
    private final CountDownLatch ready;
    private final Thread shutdownHook;
    private boolean closed;

    private PeerProcess(final Process process, final CountDownLatch ready)
    {
        this.process = process;
        this.ready = ready;
        this.shutdownHook = new Thread(() -> destroy(process), "remote-peer-reaper");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts the child.
     *
     * @param workloadArgs the workload and its options, e.g. {@code remote.peer --port 40123 ...}.
     * @return the running child.
     */
    static PeerProcess start(final List<String> workloadArgs)
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmFlags());
        command.add("-cp");
        command.add(classPath());
        command.add(Main.class.getName());
        command.addAll(workloadArgs);
        Report.progress("  starting the peer: %s", String.join(" ", command));
        final Process process;
        try
        {
            process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("could not start the peer process", ex);
        }
        final CountDownLatch ready = new CountDownLatch(1);
        final Thread pump = new Thread(() -> copyToStderr(process, ready), "remote-peer-stdout");
        pump.setDaemon(true);
        pump.start();
        return new PeerProcess(process, ready);
    }

    /**
     * Waits until the child says its actors are up.
     *
     * @param timeout how long to wait.
     * @throws InterruptedException  if interrupted.
     * @throws IllegalStateException if the child exits or is not ready in time.
     */
    void awaitReady(final Duration timeout) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (!ready.await(100, TimeUnit.MILLISECONDS))
        {
            checkAlive();
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new IllegalStateException("the peer process was not ready within " + timeout);
            }
        }
    }

    /**
     * Fails if the child has exited.
     *
     * @throws IllegalStateException naming the exit code.
     */
    void checkAlive()
    {
        if (!process.isAlive())
        {
            throw new IllegalStateException("the peer process exited with code " + process.exitValue());
        }
    }

    /**
     * Asks the child to stop (end of file on its stdin), waits up to {@value #STOP_TIMEOUT_S} s for it to stop
     * its actor system and exit, then destroys it if it has not.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try
        {
            process.getOutputStream().close();
            if (process.waitFor(STOP_TIMEOUT_S, TimeUnit.SECONDS))
            {
                Report.progress("  peer process exited with code %d", process.exitValue());
            }
            else
            {
                Report.progress("  peer process did not stop within %d s; destroying it", STOP_TIMEOUT_S);
            }
        }
        catch (final IOException ex)
        {
            Report.progress("  could not close the peer's stdin (%s); destroying it", ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        finally
        {
            destroy(process);
            try
            {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            }
            catch (final IllegalStateException ex)
            {
                // the JVM is already shutting down: the hook runs anyway, and destroying twice is harmless
            }
        }
    }

    private static void destroy(final Process process)
    {
        if (!process.isAlive())
        {
            return;
        }
        // SIGTERM first: the child's JVM shutdown hook runs Pekko's coordinated shutdown, which closes the
        // embedded Aeron media driver and deletes its directory
        process.destroy();
        try
        {
            if (!process.waitFor(DESTROY_TIMEOUT_S, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
            }
        }
        catch (final InterruptedException ex)
        {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static void copyToStderr(final Process process, final CountDownLatch ready)
    {
        try (BufferedReader reader =
            new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)))
        {
            String line;
            while ((line = reader.readLine()) != null)
            {
                System.err.println("[peer] " + line);
                if (READY.equals(line))
                {
                    ready.countDown();
                }
            }
        }
        catch (final IOException ex)
        {
            // the child is gone; nothing more to copy
        }
    }

    private static List<String> jvmFlags()
    {
        final List<String> flags = new ArrayList<>();
        boolean exported = false;
        for (final String flag : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            if (flag.startsWith("-agentlib:jdwp") || flag.startsWith("-Xrunjdwp") || flag.equals("-Xdebug"))
            {
                continue; // a second debugger on the same port would stop the child from starting
            }
            exported |= flag.contains(ADD_EXPORTS);
            flags.add(flag.startsWith(JFR_FLAG) ? peerRecording(flag) : flag);
        }
        if (!exported)
        {
            flags.add("--add-exports");
            flags.add(ADD_EXPORTS);
        }
        return flags;
    }

    /** The JFR flag with its file name changed from {@code x.jfr} to {@code x-peer.jfr}. */
    private static String peerRecording(final String flag)
    {
        final int at = flag.indexOf("filename=");
        if (at < 0)
        {
            return flag;
        }
        final int start = at + "filename=".length();
        final int end = flag.indexOf(',', start) < 0 ? flag.length() : flag.indexOf(',', start);
        final String name = flag.substring(start, end);
        final String peerName = name.endsWith(".jfr") ? name.substring(0, name.length() - 4) + "-peer.jfr" :
            name + "-peer";
        return flag.substring(0, start) + peerName + flag.substring(end);
    }

    private static String classPath()
    {
        try
        {
            final Path codeSource = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            // the shaded jar holds every dependency; from a classes directory (an IDE), fall back to the class path
            return Files.isRegularFile(codeSource) ? codeSource.toString() : System.getProperty("java.class.path");
        }
        catch (final URISyntaxException | SecurityException ex)
        {
            return System.getProperty("java.class.path");
        }
    }
}
