package io.troupe.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The chaos workload's ledger as written by every node incarnation ({@code tx-<node>-<inc>.csv} and
 * {@code rx-<node>-<inc>.csv} in each node's ledger directory, and the flood's {@code ftx-} and {@code frx-} files),
 * read back during and after a run, incrementally ({@link #update}). A torn last line (a node killed while writing
 * it) is skipped.
 */
final class Ledger
{
    private static final Pattern FILE = Pattern.compile("(tx|rx|ftx|frx)-(\\d+)-(-?\\d+)\\.csv");

    /** One line: its kind, the node and incarnation whose file it is in, its time and its fields. */
    record Line(String kind, int node, long incarnation, long epochMs, String[] fields)
    {
        int intField(final int index)
        {
            return Integer.parseInt(fields[index]);
        }

        long longField(final int index)
        {
            return Long.parseLong(fields[index]);
        }
    }

    /** One file's lines so far, and how many of its bytes they came from (up to its last whole line). */
    private static final class FileLines
    {
        private final String kind;
        private final List<Line> lines = new ArrayList<>();
        private long offset;

        private FileLines(final String kind)
        {
            this.kind = kind;
        }
    }

    /** The files read, in the order they were first found (directory by directory, by name within one). */
    private final Map<Path, FileLines> files = new LinkedHashMap<>();
    /** Incarnations seen, per node, in the order of their numbers. */
    private final Map<Integer, List<Long>> incarnations = new LinkedHashMap<>();
    private List<Line> sent;
    private List<Line> received;
    private List<Line> flood;

    static Ledger read(final List<Path> directories)
    {
        return new Ledger().update(directories);
    }

    /**
     * Reads what the files gained since the last read (and files new since then): a scenario that waits on the
     * ledger reads each byte once, not the whole ledger at every check (a full read took 5-8 s of a 2-core host
     * after a minute of traffic).
     *
     * @param directories the nodes' ledger directories.
     * @return this ledger.
     */
    Ledger update(final List<Path> directories)
    {
        for (final Path dir : directories)
        {
            try (Stream<Path> listed = Files.list(dir))
            {
                for (final Path file : listed.sorted().toList())
                {
                    final Matcher name = FILE.matcher(file.getFileName().toString());
                    if (name.matches())
                    {
                        readFile(file, name.group(1), Integer.parseInt(name.group(2)), Long.parseLong(name.group(3)));
                    }
                }
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("cannot read the ledger in " + dir, ex);
            }
        }
        incarnations.values().forEach(list -> list.sort(Long::compare));
        sent = null;
        received = null;
        flood = null;
        return this;
    }

    private void readFile(final Path file, final String kind, final int node, final long incarnation) throws IOException
    {
        final List<Long> known = incarnations.computeIfAbsent(node, n -> new ArrayList<>());
        if (!known.contains(incarnation))
        {
            known.add(incarnation);
        }
        final FileLines read = files.computeIfAbsent(file, f -> new FileLines(kind));
        final byte[] added;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            final long size = channel.size();
            if (size <= read.offset)
            {
                return;
            }
            final ByteBuffer bytes = ByteBuffer.allocate(Math.toIntExact(size - read.offset));
            while (bytes.hasRemaining() && channel.read(bytes, read.offset + bytes.position()) >= 0)
            {
                // until the size seen, or the end
            }
            added = Arrays.copyOf(bytes.array(), bytes.position());
        }
        int whole = added.length;
        while (whole > 0 && added[whole - 1] != '\n')
        {
            whole--; // a torn last line (its node is writing it, or was killed while it did): not yet, or never
        }
        if (whole == 0)
        {
            return;
        }
        read.offset += whole;
        for (final String line : new String(added, 0, whole - 1, StandardCharsets.US_ASCII).split("\n", -1))
        {
            final String[] parts = line.split(",");
            final String[] fields = new String[parts.length - 2];
            System.arraycopy(parts, 2, fields, 0, fields.length);
            read.lines.add(new Line(parts[0], node, incarnation, Long.parseLong(parts[1]), fields));
        }
    }

    private List<Line> lines(final String kind)
    {
        final List<Line> all = new ArrayList<>();
        for (final FileLines file : files.values())
        {
            if (file.kind.equals(kind) || "flood".equals(kind) && file.kind.startsWith("f"))
            {
                all.addAll(file.lines);
            }
        }
        return all;
    }

    /** Every line of the senders' files (S, U, C, X, E), file by file in order. */
    List<Line> senderLines()
    {
        if (sent == null)
        {
            sent = lines("tx");
        }
        return sent;
    }

    /** Every line of the receivers' files (D), file by file in order. */
    List<Line> receiverLines()
    {
        if (received == null)
        {
            received = lines("rx");
        }
        return received;
    }

    /** Every line of the flood's files (producers' P, W, R, C, X, E and sinks' K), file by file in order. */
    List<Line> floodLines()
    {
        if (flood == null)
        {
            flood = lines("flood");
        }
        return flood;
    }

    /** The incarnations of a node that wrote a ledger, oldest first. */
    List<Long> incarnations(final int node)
    {
        return incarnations.getOrDefault(node, List.of());
    }
}
