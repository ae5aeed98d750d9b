package io.troupe.interconnect;

import io.aeron.Aeron;
import io.aeron.ChannelUriStringBuilder;
import io.aeron.ExclusivePublication;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.troupe.testing.Await;
import org.agrona.concurrent.BackoffIdleStrategy;

import java.time.Duration;

/**
 * A media driver and Aeron client of the test's own, not a node: what a publisher that is not a peer uses to
 * reach a node's endpoint. Each publication is exclusive, so it has an Aeron session of its own.
 */
final class RogueAeron implements AutoCloseable
{
    private final MediaDriver driver;
    private final Aeron aeron;

    RogueAeron()
    {
        final String dir = System.getProperty("java.io.tmpdir") + "/troupe-rogue-" + System.nanoTime();
        driver = MediaDriver.launch(new MediaDriver.Context().aeronDirectoryName(dir)
            .threadingMode(ThreadingMode.SHARED).dirDeleteOnStart(true).dirDeleteOnShutdown(true)
            .termBufferSparseFile(true).publicationTermBufferLength(64 * 1024).ipcTermBufferLength(64 * 1024)
            .sharedIdleStrategy(new BackoffIdleStrategy()));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
    }

    /** A publication to a node's endpoint on 127.0.0.1. */
    ExclusivePublication publication(final int port, final int streamId, final int termLength)
    {
        return aeron.addExclusivePublication(new ChannelUriStringBuilder().media("udp").endpoint("127.0.0.1:" + port)
            .termLength(termLength).build(), streamId);
    }

    /**
     * Publications to a node's endpoint on 127.0.0.1 as a member has them: control, data and bulk under one Aeron
     * session, once the node's driver has images of all three (a node answers a handshake only then).
     *
     * @return the control publication.
     */
    ExclusivePublication member(final int port, final InterconnectConfig config)
    {
        final ExclusivePublication control = publication(port, config.controlStreamId(), config.controlTermLength());
        final ExclusivePublication data = publication(port, config.dataStreamId(), config.dataTermLength(),
            control.sessionId());
        final ExclusivePublication bulk = publication(port, config.bulkStreamId(), config.bulkTermLength(),
            control.sessionId());
        Await.until(() -> control.isConnected() && data.isConnected() && bulk.isConnected(),
            Duration.ofSeconds(10), "the member's streams heard by the node");
        return control;
    }

    private ExclusivePublication publication(final int port, final int streamId, final int termLength,
        final int session)
    {
        return aeron.addExclusivePublication(new ChannelUriStringBuilder().media("udp").endpoint("127.0.0.1:" + port)
            .termLength(termLength).sessionId(session).build(), streamId);
    }

    @Override
    public void close()
    {
        aeron.close();
        driver.close();
    }
}
