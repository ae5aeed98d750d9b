package io.troupe.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A file in the repository that is made from declarations (a docs table, a reference config): a test makes it again
 * and either finds it unchanged, rewrites it when asked to, or fails naming the first lines that differ and the
 * command that makes it again.
 */
public final class GeneratedFile
{
    private static final int SHOWN = 6;

    private GeneratedFile()
    {
    }

    /**
     * Checks a file against what it should be.
     *
     * @param file    the file.
     * @param lines   its lines now.
     * @param made    its lines as made from the declarations.
     * @param write   rewrite the file instead of failing (the test's {@code -D...write=true}).
     * @param madeOf  what it is made from, for the message ("the counter declarations").
     * @param rewrite the command that makes it again, for the message.
     * @throws IOException    if the rewrite fails.
     * @throws AssertionError if it differs and {@code write} is false.
     */
    public static void check(final Path file, final List<String> lines, final List<String> made, final boolean write,
        final String madeOf, final String rewrite) throws IOException
    {
        if (made.equals(lines))
        {
            return;
        }
        if (write)
        {
            Files.write(file, made, StandardCharsets.UTF_8);
            return;
        }
        final List<String> differences = new ArrayList<>();
        for (int i = 0; i < Math.max(lines.size(), made.size()) && differences.size() < SHOWN; i++)
        {
            final String was = i < lines.size() ? lines.get(i) : "<none>";
            final String wants = i < made.size() ? made.get(i) : "<none>";
            if (!was.equals(wants))
            {
                differences.add("line " + (i + 1) + ": is   " + was + "\n           want " + wants);
            }
        }
        throw new AssertionError(file + " differs from " + madeOf + " (" + rewrite + " makes it again):\n" +
            String.join("\n", differences));
    }
}
