package io.troupe.node;

import io.troupe.actor.ServiceId;
import io.troupe.serialization.EventCodec;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The receiving end of the membership traffic tests, run in each node process as an application
 * ({@code troupe.application.setup}): a {@value #NAME} service that writes every {@link TestEvents.Note} it is
 * handed, {@code "<seq>/<incarnation the sender addressed>"}, as the line {@code <seq>,<incarnation>} of
 * {@code ledger-rx-<its own incarnation>.csv} in the node's data directory, flushed line by line so a test can read
 * it while the node runs and after it was killed.
 */
public final class LedgerReceiverSetup implements NodeSetup
{
    /** The service's name on every node. */
    public static final String NAME = "ledger-rx";
    /** The service on node 0: {@code onNode(n)} addresses node n's. */
    public static final ServiceId RECEIVER = ServiceId.of(0, NAME);
    private static final String PREFIX = "ledger-rx-";

    @Override
    public List<EventCodec<?>> codecs()
    {
        return List.of(TestEvents.NOTE_CODEC);
    }

    @Override
    public void setup(final Node node)
    {
        final Path file = node.config().dataDir().resolve(PREFIX + node.interconnect().incarnation() + ".csv");
        final BufferedWriter out;
        try
        {
            out = Files.newBufferedWriter(file, StandardCharsets.US_ASCII, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot open " + file, ex);
        }
        node.system().registerService(RECEIVER, node.system().register((ctx, envelope) ->
        {
            if (envelope.event() instanceof TestEvents.Note note)
            {
                try
                {
                    out.write(note.text().replace('/', ','));
                    out.newLine();
                    out.flush();
                }
                catch (final IOException ex)
                {
                    throw new UncheckedIOException("cannot write " + file, ex);
                }
            }
        }));
    }

    /** One delivery a receiver wrote down. */
    record Delivery(long seq, long addressed, long receiver)
    {
    }

    /**
     * Reads every delivery the receiver of one data directory wrote down, in all its incarnations.
     *
     * @param dataDir the node's data directory.
     * @return the deliveries, file by file, in the order written.
     */
    static List<Delivery> read(final Path dataDir)
    {
        final List<Delivery> deliveries = new ArrayList<>();
        if (!Files.isDirectory(dataDir))
        {
            return deliveries;
        }
        try (Stream<Path> files = Files.list(dataDir))
        {
            for (final Path file : files.filter(f -> f.getFileName().toString().startsWith(PREFIX)).toList())
            {
                final String name = file.getFileName().toString();
                final long receiver = Long.parseLong(name.substring(PREFIX.length(), name.length() - ".csv".length()));
                final String text = Files.readString(file, StandardCharsets.US_ASCII);
                // only whole lines: one still being written (or cut by a kill) has no newline yet
                for (final String line : text.substring(0, text.lastIndexOf('\n') + 1).split("\n"))
                {
                    final int comma = line.indexOf(',');
                    if (comma > 0)
                    {
                        deliveries.add(new Delivery(Long.parseLong(line.substring(0, comma)),
                            Long.parseLong(line.substring(comma + 1)), receiver));
                    }
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read the ledger in " + dataDir, ex);
        }
        return deliveries;
    }
}
