package io.troupe.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The {@code --name value} options of one workload run. Parsing accepts only the common options and the names
 * the workload declares; the typed getters validate ranges and apply defaults.
 *
 * <p>Not thread safe; read on the main thread before the run starts.
 */
final class Options
{
    /** Seconds of warm-up before the measurement window. */
    static final String WARMUP = "warmup";
    /** Seconds of the measurement window. */
    static final String SECONDS = "seconds";
    /** Worker threads of the actor system's only executor pool. */
    static final String THREADS = "threads";
    /** Options every workload accepts. */
    static final List<String> COMMON = List.of(WARMUP, SECONDS, THREADS);

    private static final double DEFAULT_WARMUP_SECONDS = 5;
    private static final double DEFAULT_MEASURE_SECONDS = 10;
    private static final int DEFAULT_THREADS = 2;
    private static final int MAX_THREADS = 256;
    private static final double MAX_SECONDS = 24 * 3600;

    private final Map<String, String> values;

    private Options(final Map<String, String> values)
    {
        this.values = values;
    }

    /**
     * Parses {@code --name value} pairs.
     *
     * @param args    the command line.
     * @param from    index of the first option.
     * @param allowed workload-specific option names, without the dashes; {@link #COMMON} are always allowed.
     * @return the options.
     * @throws UsageException on an unknown or repeated option, or a missing value.
     */
    static Options parse(final String[] args, final int from, final List<String> allowed)
    {
        final Map<String, String> values = new HashMap<>();
        for (int i = from; i < args.length; i += 2)
        {
            final String arg = args[i];
            if (!arg.startsWith("--"))
            {
                throw new UsageException("expected an option --name, got '" + arg + "'");
            }
            final String name = arg.substring(2);
            if (!COMMON.contains(name) && !allowed.contains(name))
            {
                throw new UsageException("unknown option " + arg);
            }
            if (i + 1 >= args.length)
            {
                throw new UsageException("option " + arg + " needs a value");
            }
            if (values.put(name, args[i + 1]) != null)
            {
                throw new UsageException("option " + arg + " given twice");
            }
        }
        return new Options(values);
    }

    /**
     * Length of the warm-up.
     *
     * @return nanoseconds, from {@code --warmup} seconds (default 5, at least 0).
     */
    long warmupNs()
    {
        return secondsToNanos(WARMUP, DEFAULT_WARMUP_SECONDS, 0);
    }

    /**
     * Length of the measurement window.
     *
     * @return nanoseconds, from {@code --seconds} (default 10, more than 0).
     */
    long measureNs()
    {
        return measureNs(DEFAULT_MEASURE_SECONDS);
    }

    /**
     * Length of the measurement window, for a workload whose default differs (one that needs a long window to
     * reach a steady state).
     *
     * @param defaultSeconds the value when {@code --seconds} is absent.
     * @return nanoseconds, from {@code --seconds} (more than 0).
     */
    long measureNs(final double defaultSeconds)
    {
        final long ns = secondsToNanos(SECONDS, defaultSeconds, 0);
        if (ns <= 0)
        {
            throw new UsageException("--seconds must be more than 0");
        }
        return ns;
    }

    /**
     * Worker threads of the executor pool.
     *
     * @return {@code --threads}, default 2, range 1..256.
     */
    int threads()
    {
        return threads(DEFAULT_THREADS);
    }

    /**
     * Worker threads of the executor pool, for a workload whose default differs (the remote workloads run two
     * nodes on one machine).
     *
     * @param defaultThreads the value when {@code --threads} is absent.
     * @return {@code --threads}, range 1..256.
     */
    int threads(final int defaultThreads)
    {
        return (int)count(THREADS, defaultThreads, 1, MAX_THREADS);
    }

    /**
     * A whole-number option; underscores may separate digit groups ({@code 1_000_000}).
     *
     * @param name         the option name, without the dashes.
     * @param defaultValue the value when absent.
     * @param min          smallest allowed value.
     * @param max          largest allowed value.
     * @return the value.
     * @throws UsageException if it is not a number in range.
     */
    long count(final String name, final long defaultValue, final long min, final long max)
    {
        final String text = values.get(name);
        if (text == null)
        {
            return defaultValue;
        }
        final long value;
        try
        {
            value = Long.parseLong(text.replace("_", ""));
        }
        catch (final NumberFormatException ex)
        {
            throw new UsageException("--" + name + " expects a whole number, got '" + text + "'");
        }
        if (value < min || value > max)
        {
            throw new UsageException("--" + name + "=" + value + " out of range " + min + ".." + max);
        }
        return value;
    }

    /**
     * An option's text as given.
     *
     * @param name         the option name, without the dashes.
     * @param defaultValue the value when absent.
     * @return the text, or the default.
     */
    String text(final String name, final String defaultValue)
    {
        return values.getOrDefault(name, defaultValue);
    }

    /**
     * An option with a fixed set of values, compared ignoring case.
     *
     * @param name         the option name, without the dashes.
     * @param defaultValue the value when absent.
     * @param choices      the allowed values, lower case.
     * @return the chosen value, lower case.
     * @throws UsageException if the value is not one of the choices.
     */
    String choice(final String name, final String defaultValue, final List<String> choices)
    {
        final String text = values.get(name);
        if (text == null)
        {
            return defaultValue;
        }
        final String value = text.toLowerCase(Locale.ROOT);
        if (!choices.contains(value))
        {
            throw new UsageException("--" + name + " expects one of " + String.join("|", choices) + ", got '" + text +
                "'");
        }
        return value;
    }

    /**
     * Whether an option was given on the command line.
     *
     * @param name the option name, without the dashes.
     * @return true if present.
     */
    boolean has(final String name)
    {
        return values.containsKey(name);
    }

    /**
     * The given options as they were on the command line, for a child process to run with the same settings.
     *
     * @param names option names, without the dashes; those not given are left out.
     * @return {@code --name value} pairs.
     */
    List<String> passOn(final List<String> names)
    {
        final List<String> args = new ArrayList<>();
        for (final String name : names)
        {
            final String value = values.get(name);
            if (value != null)
            {
                args.add("--" + name);
                args.add(value);
            }
        }
        return args;
    }

    private long secondsToNanos(final String name, final double defaultSeconds, final double minSeconds)
    {
        final String text = values.get(name);
        double seconds = defaultSeconds;
        if (text != null)
        {
            try
            {
                seconds = Double.parseDouble(text);
            }
            catch (final NumberFormatException ex)
            {
                throw new UsageException("--" + name + " expects seconds, got '" + text + "'");
            }
        }
        if (!(seconds >= minSeconds && seconds <= MAX_SECONDS))
        {
            throw new UsageException("--" + name + "=" + text + " out of range " + minSeconds + ".." + MAX_SECONDS);
        }
        return Math.round(seconds * TimeUnit.SECONDS.toNanos(1));
    }
}
