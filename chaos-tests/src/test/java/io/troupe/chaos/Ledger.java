package io.troupe.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The chaos workload's ledger as written by every node incarnation ({@code tx-<node>-<inc>.csv} and
 * {@code rx-<node>-<inc>.csv} in each node's ledger directory, and the flood's {@code ftx-} and {@code frx-} files),
 * read back after a run. A torn last line (a node killed while writing it) is skipped.
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

    private final List<Line> sent = new ArrayList<>();
    private final List<Line> received = new ArrayList<>();
    private final List<Line> flood = new ArrayList<>();
    /** Incarnations seen, per node, in the order of their numbers. */
    private final Map<Integer, List<Long>> incarnations = new LinkedHashMap<>();

    static Ledger read(final List<Path> directories)
    {
        final Ledger ledger = new Ledger();
        for (final Path dir : directories)
        {
            try (Stream<Path> files = Files.list(dir))
            {
                for (final Path file : files.sorted().toList())
                {
                    final Matcher name = FILE.matcher(file.getFileName().toString());
                    if (name.matches())
                    {
                        ledger.readFile(file, name.group(1), Integer.parseInt(name.group(2)),
                            Long.parseLong(name.group(3)));
                    }
                }
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("cannot read the ledger in " + dir, ex);
            }
        }
        ledger.incarnations.values().forEach(list -> list.sort(Long::compare));
        return ledger;
    }

    private void readFile(final Path file, final String kind, final int node, final long incarnation) throws IOException
    {
        final List<Long> known = incarnations.computeIfAbsent(node, n -> new ArrayList<>());
        if (!known.contains(incarnation))
        {
            known.add(incarnation);
        }
        final String text = Files.readString(file, StandardCharsets.US_ASCII);
        final String[] lines = text.split("\n", -1);
        // the last element is "" after a whole last line, or a torn line: skipped either way
        for (int i = 0; i < lines.length - 1; i++)
        {
            final String[] parts = lines[i].split(",");
            final String[] fields = new String[parts.length - 2];
            System.arraycopy(parts, 2, fields, 0, fields.length);
            final List<Line> into = "tx".equals(kind) ? sent : "rx".equals(kind) ? received : flood;
            into.add(new Line(parts[0], node, incarnation, Long.parseLong(parts[1]), fields));
        }
    }

    /** Every line of the senders' files (S, U, C, X, E), file by file in order. */
    List<Line> senderLines()
    {
        return sent;
    }

    /** Every line of the receivers' files (D), file by file in order. */
    List<Line> receiverLines()
    {
        return received;
    }

    /** Every line of the flood's files (producers' P, W, R, C, X, E and sinks' K), file by file in order. */
    List<Line> floodLines()
    {
        return flood;
    }

    /** The incarnations of a node that wrote a ledger, oldest first. */
    List<Long> incarnations(final int node)
    {
        return incarnations.getOrDefault(node, List.of());
    }
}
