package io.troupe.chaos.workload;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An append-only CSV file of ledger lines ({@code kind,epochMs,fields...}), written by one actor's thread and flushed
 * at the end of each of its events, so that a node killed with SIGKILL loses at most the line being written (the
 * checker skips a torn last line).
 */
final class LedgerFile implements AutoCloseable
{
    private final BufferedWriter writer;
    private boolean dirty;

    LedgerFile(final Path file)
    {
        try
        {
            Files.createDirectories(file.getParent());
            writer = Files.newBufferedWriter(file, StandardCharsets.US_ASCII, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot open the chaos ledger " + file, ex);
        }
    }

    void line(final String kind, final Object... fields)
    {
        try
        {
            writer.write(kind);
            writer.write(',');
            writer.write(Long.toString(System.currentTimeMillis()));
            for (final Object field : fields)
            {
                writer.write(',');
                writer.write(String.valueOf(field));
            }
            writer.write('\n');
            dirty = true;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    void flush()
    {
        if (!dirty)
        {
            return;
        }
        try
        {
            writer.flush();
            dirty = false;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    @Override
    public void close()
    {
        try
        {
            writer.close();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
