package io.troupe.bench;

import io.aeron.Aeron;
import io.aeron.ConcurrentPublication;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.BufferClaim;
import io.aeron.logbuffer.FragmentHandler;
import io.troupe.interconnect.AgentIdle;
import io.troupe.interconnect.InterconnectConfig;
import org.agrona.IoUtil;
import org.agrona.concurrent.IdleStrategy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code remote.raw}: the ceiling {@code remote.throughput} is measured against, plain Aeron on the same machine
 * with the same shape and nothing of Troupe's: one thread offers 24-byte messages as fast as the publication takes
 * them, over UDP on 127.0.0.1 with a 1408-byte MTU and Troupe's data term length, to one thread that polls them and
 * counts. Two embedded media drivers (one per side, as two nodes have), each on a thread of its own
 * ({@code ThreadingMode.SHARED}) and idling as a node's agent does ({@link AgentIdle}); the publisher and the
 * subscriber idle the same way when they find nothing to do. So the machine runs the same four busy threads as in
 * {@code remote.throughput} (two network threads, a sending and a receiving one), in one process rather than two.
 * The figure is messages received per second over the window.
 */
final class RawAeronWorkload implements Workload
{
    /** The encoded size of {@code remote.throughput}'s chunk: a long and 16 bytes. */
    static final int MESSAGE_LENGTH = 24;

    private static final int STREAM_ID = 1001;
    private static final int FRAGMENT_LIMIT = 256;
    private static final long CONNECT_TIMEOUT_NS = 10_000_000_000L;

    @Override
    public String name()
    {
        return "remote.raw";
    }

    @Override
    public List<String> options()
    {
        return List.of();
    }

    @Override
    public String usage()
    {
        return "  remote.raw                     plain Aeron, no Troupe: 24-byte messages from one thread to another " +
            "over\n" +
            "                                 UDP on 127.0.0.1 between two embedded drivers (MTU 1408); the ceiling " +
            "of\n" +
            "                                 remote.throughput on this machine; prints messages received per second";
    }

    @Override
    public void run(final Options options) throws InterruptedException
    {
        final InterconnectConfig defaults = new InterconnectConfig();
        final int port = RemoteNodes.freeUdpPort(0);
        Report.progress("remote.raw: %d-byte messages, mtu=%d term=%d, udp 127.0.0.1:%d, warmup=%.1fs window=%.1fs",
            MESSAGE_LENGTH, defaults.mtuLength(), defaults.dataTermLength(), port, options.warmupNs() / 1e9,
            options.measureNs() / 1e9);
        final Path root = tempDirectory();
        final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicLong received = new AtomicLong();
        final AtomicLong backPressured = new AtomicLong();
        final String channel = "aeron:udp?endpoint=127.0.0.1:" + port + "|mtu=" + defaults.mtuLength() +
            "|term-length=" + defaults.dataTermLength();
        try (MediaDriver sendingDriver = launch(root.resolve("sender"), defaults);
            MediaDriver receivingDriver = launch(root.resolve("receiver"), defaults);
            Aeron sendingClient =
                Aeron.connect(new Aeron.Context().aeronDirectoryName(sendingDriver.aeronDirectoryName()));
            Aeron receivingClient =
                Aeron.connect(new Aeron.Context().aeronDirectoryName(receivingDriver.aeronDirectoryName()));
            Subscription subscription = receivingClient.addSubscription(channel, STREAM_ID);
            ConcurrentPublication publication = sendingClient.addPublication(channel, STREAM_ID))
        {
            awaitConnected(publication);
            final Thread subscriber = new Thread(() -> poll(subscription, received, running), "raw-subscriber");
            final Thread publisher = new Thread(() -> offer(publication, backPressured, running), "raw-publisher");
            subscriber.start();
            publisher.start();
            try
            {
                final double rate = RateWindow.perSecond(received::get, options.warmupNs(), options.measureNs());
                Report.progress("  received %d in all; offers refused by back-pressure %d", received.get(),
                    backPressured.get());
                Report.result("remote.raw", rate, "msgs/s");
            }
            finally
            {
                running.set(false);
                publisher.join();
                subscriber.join();
            }
        }
        finally
        {
            IoUtil.delete(root.toFile(), true);
        }
    }

    private static MediaDriver launch(final Path directory, final InterconnectConfig defaults)
    {
        return MediaDriver.launch(new MediaDriver.Context()
            .aeronDirectoryName(directory.toString())
            .threadingMode(ThreadingMode.SHARED)
            .sharedIdleStrategy(new AgentIdle())
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .termBufferSparseFile(true)
            .publicationTermBufferLength(defaults.dataTermLength())
            .ipcTermBufferLength(64 * 1024)
            .mtuLength(defaults.mtuLength()));
    }

    private static void awaitConnected(final Publication publication) throws InterruptedException
    {
        final long deadline = System.nanoTime() + CONNECT_TIMEOUT_NS;
        while (!publication.isConnected())
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new IllegalStateException("the raw publication did not connect within 10 s");
            }
            Thread.sleep(1);
        }
    }

    private static void offer(final Publication publication, final AtomicLong backPressured,
        final AtomicBoolean running)
    {
        final BufferClaim claim = new BufferClaim();
        final IdleStrategy idle = new AgentIdle();
        long sequence = 0;
        long refused = 0;
        while (running.get())
        {
            if (publication.tryClaim(MESSAGE_LENGTH, claim) > 0)
            {
                claim.buffer().putLong(claim.offset(), sequence++);
                claim.commit();
                idle.idle(1);
            }
            else
            {
                refused++;
                idle.idle(0);
            }
        }
        backPressured.set(refused);
    }

    private static void poll(final Subscription subscription, final AtomicLong received, final AtomicBoolean running)
    {
        final long[] count = new long[1];
        final FragmentHandler handler = (buffer, offset, length, header) -> count[0]++;
        final IdleStrategy idle = new AgentIdle();
        while (running.get())
        {
            final int fragments = subscription.poll(handler, FRAGMENT_LIMIT);
            if (fragments > 0)
            {
                received.lazySet(count[0]);
            }
            idle.idle(fragments);
        }
    }

    private static Path tempDirectory()
    {
        try
        {
            return Files.createTempDirectory("troupe-raw-aeron-");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("could not make a directory for the raw Aeron drivers", ex);
        }
    }
}
