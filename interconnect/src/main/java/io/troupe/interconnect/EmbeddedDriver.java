package io.troupe.interconnect;

import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.troupe.actor.AgentErrorLog;
import org.agrona.CloseHelper;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The node's embedded media driver: launched in a directory that is the node's own (missing, empty, or marked and
 * with no driver alive in it), with images bounded by the {@link ImageGuard}, and its directory deleted when it
 * closes if it is still marked as the node's.
 */
final class EmbeddedDriver
{
    private static final Logger LOG = LoggerFactory.getLogger(Interconnect.class);
    /**
     * How long the whole process may stand still (a long GC pause, SIGSTOP, a paused container or VM) before the
     * embedded driver and the node's Aeron client give each other up: Aeron's default, 10 s, killed the client of a
     * node paused for 10 s for good (found by the chaos tests). The peers' failure detector still sees such a node
     * go after its failure timeout; only the node's own transport survives the pause.
     */
    static final long PAUSE_TOLERANCE_NS = TimeUnit.MINUTES.toNanos(5);

    private EmbeddedDriver()
    {
    }

    /**
     * Launches the driver in the config's Aeron directory and marks the directory as the node's.
     *
     * @throws IllegalStateException if a driver is alive in the directory, or it is not the node's to replace.
     */
    static MediaDriver launch(final InterconnectConfig config, final int nodeId, final ImageGuard guard,
        final ErrorHandler recorder)
    {
        // the driver deletes and makes its directory again: only if it is missing, empty or a node's in which no
        // driver is alive (one killed a moment ago is not: its process is gone, see LiveDriver)
        final Path aeronDir = Path.of(config.aeronDir());
        PrivateDirectory.checkReplaceable(aeronDir, "Aeron directory");
        if (PrivateDirectory.isMarked(aeronDir) && LiveDriver.isAlive(aeronDir))
        {
            throw new IllegalStateException("a media driver is running in " + aeronDir + ": is another node " +
                "using this Aeron directory? Give each node a directory of its own (troupe.transport.aeron-dir)");
        }
        final MediaDriver driver = MediaDriver.launch(new MediaDriver.Context()
            .aeronDirectoryName(config.aeronDir())
            .threadingMode(config.driverOnAgentThread() ? ThreadingMode.INVOKER : ThreadingMode.SHARED)
            .asyncExecutorEnabled(!config.driverOnAgentThread())
            .sharedIdleStrategy(config.idleMode() == IdleMode.SPIN ? new BusySpinIdleStrategy() :
                new AgentIdle(config.maxIdlePark().toNanos()))
            // the driver and its one client (the interconnect) live and pause together: a stop of the process (a
            // long GC, SIGSTOP, a paused container or VM) must not make either time the other out for good
            .clientLivenessTimeoutNs(PAUSE_TOLERANCE_NS)
            .publicationUnblockTimeoutNs(PAUSE_TOLERANCE_NS + TimeUnit.SECONDS.toNanos(10))
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(false) // close deletes it, if still marked as the node's
            .termBufferSparseFile(true)
            .publicationTermBufferLength(config.dataTermLength())
            .ipcTermBufferLength(64 * 1024)
            .mtuLength(config.mtuLength())
            .receiveChannelEndpointSupplier((udpChannel, dispatcher, status, context) ->
                new GuardedReceiveEndpoint(udpChannel, dispatcher, status, context, guard))
            .errorHandler(new AgentErrorLog(LOG, "node " + nodeId + ": media driver", recorder)));
        try
        {
            PrivateDirectory.claim(aeronDir, "Aeron directory");
        }
        catch (final RuntimeException ex)
        {
            close(null, driver, config);
            throw ex;
        }
        return driver;
    }

    /**
     * Connects the node's Aeron client to its driver: the embedded one (run by the client's invoker while start-up
     * waits for it, when it runs on the interconnect's thread), or an external one.
     *
     * @param config        the settings: the Aeron directory.
     * @param driverInvoker the embedded driver's invoker, or null when it has a thread of its own or is external.
     * @param nodeId        for the error log.
     * @param recorder      the node's error recorder.
     * @return the client, serviced by its conductor invoker on the interconnect's thread.
     */
    static Aeron connectClient(final InterconnectConfig config, final AgentInvoker driverInvoker,
        final int nodeId, final ErrorHandler recorder)
    {
        final Aeron.Context context = new Aeron.Context();
        if (config.embeddedDriver())
        {
            // the driver is this process's: it pauses with us, so waiting longer for it costs nothing
            context.driverTimeoutMs(TimeUnit.NANOSECONDS.toMillis(PAUSE_TOLERANCE_NS));
        }
        return Aeron.connect(context
            .aeronDirectoryName(config.aeronDir())
            .driverAgentInvoker(driverInvoker)
            .useConductorAgentInvoker(true)
            .errorHandler(new AgentErrorLog(LOG, "node " + nodeId + ": Aeron client", recorder)));
    }

    /** Closes the Aeron client and the driver (either may be null) and deletes the driver's directory if marked. */
    static void close(final Aeron aeron, final MediaDriver driver, final InterconnectConfig config)
    {
        CloseHelper.quietCloseAll(aeron, driver);
        if (driver != null)
        {
            PrivateDirectory.deleteIfMarked(Path.of(config.aeronDir()));
        }
    }
}
