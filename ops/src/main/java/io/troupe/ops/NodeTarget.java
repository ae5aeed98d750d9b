package io.troupe.ops;

import io.troupe.node.NodeConfigException;
import io.troupe.node.NodeConfigLoader;
import io.troupe.node.counters.CountersFileException;
import io.troupe.node.counters.CountersFileReader;
import io.troupe.node.counters.CountersLayout;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * Which node a command reads: its data directory, given ({@code --data-dir}), taken from its config file
 * ({@code --config}, as {@code troupe node} reads it), or, given neither, the one node data directory under
 * {@code ./data} (the default {@code troupe.data-dir} of a node started here).
 */
final class NodeTarget
{
    @Option(names = {"-d", "--data-dir"}, paramLabel = "DIR", description = "the node's data directory")
    Path dataDir;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
        description = "the node's config file (for its data directory)")
    Path config;

    @Option(names = "--json", description = "print one JSON document instead of a table")
    boolean json;

    /** The data directory, or a usage error (exit 2) naming what is missing or ambiguous. */
    Path dataDir()
    {
        if (dataDir != null && config != null)
        {
            throw new CliException(TroupeCli.USAGE, "give --data-dir or --config, not both");
        }
        if (dataDir != null)
        {
            return dataDir;
        }
        if (config != null)
        {
            try
            {
                return NodeConfigLoader.load(config, new Properties()).dataDir();
            }
            catch (final NodeConfigException ex)
            {
                throw new CliException(TroupeCli.USAGE, ex.getMessage());
            }
        }
        final Path data = Path.of("data");
        final List<Path> candidates;
        try (Stream<Path> dirs = Files.isDirectory(data) ? Files.list(data) : Stream.empty())
        {
            candidates = dirs.filter(dir -> Files.exists(dir.resolve(CountersLayout.FILE_NAME))).sorted().toList();
        }
        catch (final IOException ex)
        {
            throw new CliException(TroupeCli.USAGE, "cannot list " + data.toAbsolutePath() + ": " + ex.getMessage());
        }
        if (candidates.size() == 1)
        {
            return candidates.get(0);
        }
        throw new CliException(TroupeCli.USAGE, candidates.isEmpty() ?
            "which node? give --data-dir DIR or --config FILE (no node data directory under " +
                data.toAbsolutePath() + ")" :
            "which node? give --data-dir DIR or --config FILE; node data directories here: " + candidates);
    }

    /** The node's counters file, or exit 3 (unreachable) saying why. */
    CountersFileReader open()
    {
        final Path dir = dataDir();
        try
        {
            return CountersFileReader.open(dir);
        }
        catch (final CountersFileException ex)
        {
            throw new CliException(TroupeCli.UNREACHABLE, ex.getMessage());
        }
    }
}
