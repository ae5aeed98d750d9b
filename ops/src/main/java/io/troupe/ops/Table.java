package io.troupe.ops;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** A human table: a header row and rows, columns padded to their widest cell, numbers right-aligned. */
final class Table
{
    private final String[] header;
    private final List<String[]> rows = new ArrayList<>();

    Table(final String... header)
    {
        this.header = header;
    }

    Table row(final Object... cells)
    {
        final String[] row = new String[header.length];
        for (int i = 0; i < row.length; i++)
        {
            row[i] = i < cells.length && cells[i] != null ? cells[i].toString() : "";
        }
        rows.add(row);
        return this;
    }

    boolean isEmpty()
    {
        return rows.isEmpty();
    }

    void print(final PrintWriter out)
    {
        final int[] widths = new int[header.length];
        final boolean[] numeric = new boolean[header.length];
        for (int i = 0; i < header.length; i++)
        {
            widths[i] = header[i].length();
            numeric[i] = !rows.isEmpty();
        }
        for (final String[] row : rows)
        {
            for (int i = 0; i < row.length; i++)
            {
                widths[i] = Math.max(widths[i], row[i].length());
                numeric[i] &= row[i].matches("-?[0-9][0-9,.]*( ?[a-zA-Z%]+)?");
            }
        }
        if (!String.join("", header).isEmpty()) // a key-value table has no header
        {
            line(out, header, widths, numeric);
        }
        for (final String[] row : rows)
        {
            line(out, row, widths, numeric);
        }
    }

    private static void line(final PrintWriter out, final String[] cells, final int[] widths, final boolean[] numeric)
    {
        final StringBuilder line = new StringBuilder();
        for (int i = 0; i < cells.length; i++)
        {
            if (i > 0)
            {
                line.append("  ");
            }
            final String pad = " ".repeat(widths[i] - cells[i].length());
            if (numeric[i])
            {
                line.append(pad).append(cells[i]);
            }
            else
            {
                line.append(cells[i]).append(i == cells.length - 1 ? "" : pad);
            }
        }
        out.println(line.toString().stripTrailing());
    }
}
