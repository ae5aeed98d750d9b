package io.troupe.bench;

import java.util.Locale;

/**
 * Where figures and progress go: each figure is one {@code RESULT} line on stdout, for scripts that compare
 * runs side by side; everything else goes to stderr.
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
        result(name, value, unit, 1);
    }

    /**
     * Prints one figure as {@code RESULT name=<name> value=<number> unit=<unit>} with more decimal places, for a
     * figure that one place would blur (a fraction such as 0.953).
     *
     * @param name     the figure's name.
     * @param value    the figure.
     * @param unit     its unit, e.g. {@code fraction}.
     * @param decimals decimal places, 0 or more.
     */
    static void result(final String name, final double value, final String unit, final int decimals)
    {
        System.out.println(String.format(Locale.ROOT, "RESULT name=%s value=%." + decimals + "f unit=%s", name, value,
            unit));
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
