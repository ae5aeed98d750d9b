package io.troupe.bench.pekko;

import java.util.Locale;

/**
 * Where figures and progress go: each figure is one {@code RESULT} line on stdout, in the same format as the
 * Troupe side ({@code benchmarks/README.md}), so that scripts compare the two line by line; everything else goes
 * to stderr.
 */
final class Report
{
    private Report()
    {
    }

    /**
     * Prints one figure as {@code RESULT name=<name> value=<number> unit=<unit>}, the value with one decimal
     * place and no thousands separators.
     *
     * @param name  the figure's name, e.g. {@code local.pingpong.pairs1}.
     * @param value the figure.
     * @param unit  its unit, e.g. {@code msgs/s}.
     */
    static void result(final String name, final double value, final String unit)
    {
        System.out.println(String.format(Locale.ROOT, "RESULT name=%s value=%.1f unit=%s", name, value, unit));
        System.out.flush();
    }

    /**
     * Prints a progress line on stderr.
     *
     * @param format a {@link String#format} pattern.
     * @param args   its arguments.
     */
    static void progress(final String format, final Object... args)
    {
        System.err.println(String.format(Locale.ROOT, format, args));
    }
}
