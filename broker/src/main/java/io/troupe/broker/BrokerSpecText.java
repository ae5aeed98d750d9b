package io.troupe.broker;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * A broker's configuration as one line of text, for operators: {@link #format(BrokerSpec)} shows a spec ({@code troupe
 * brokers}), {@link #parseQueue(String)} reads a queue policy ({@code troupe broker set NAME --ask
 * 'codel(target=5ms)'}).
 *
 * <p>Queue policies, each with its settings in brackets; a setting left out takes the default shown:
 * <pre>
 * drop(max=unbounded, drop=tail, order=fifo)
 * timeout(timeout=REQUIRED, min=0, max=unbounded, drop=tail, order=fifo)
 * codel(target=100ms, interval=1s, sojourn-limit=2*target, min=0, max=unbounded, drop=tail, order=fifo)
 * fair(key=client-node|client-actor|request-key, inner=POLICY)          inner defaults to drop()
 * </pre>
 * Durations are a number with {@code ns}, {@code us}, {@code ms}, {@code s}, {@code m} or {@code h}; {@code max} is
 * a count or {@code unbounded}; {@code drop} is {@code head} or {@code tail}; {@code order} is {@code fifo} or
 * {@code lifo}. A fair queue with a key of the application's own ({@link FairKey#of}) and a policy of the
 * application's own {@link QueueSpec} are shown by class but cannot be set from text. Formatting leaves out settings
 * at their defaults, so {@code parseQueue(formatQueue(spec))} gives the spec back.
 */
public final class BrokerSpecText
{
    /** The longest text {@link #parseQueue} reads: bounded, because it may come from a socket. */
    public static final int MAX_LENGTH = 512;

    private final String text;
    private int at;

    private BrokerSpecText(final String text)
    {
        this.text = text;
    }

    /**
     * A whole broker spec: {@code ask=POLICY askR=POLICY}, then {@code meters=[...]} if it has any.
     *
     * @param spec the spec.
     * @return one line.
     */
    public static String format(final BrokerSpec spec)
    {
        final StringBuilder line = new StringBuilder("ask=").append(formatQueue(spec.ask()))
            .append(" askR=").append(formatQueue(spec.askR()));
        if (!spec.meters().isEmpty())
        {
            final StringJoiner meters = new StringJoiner(",", " meters=[", "]");
            for (final MeterSpec meter : spec.meters())
            {
                meters.add(formatMeter(meter));
            }
            line.append(meters);
        }
        return line.toString();
    }

    /**
     * A queue policy, settings at their defaults left out.
     *
     * @param spec the policy.
     * @return e.g. {@code codel(target=5ms,interval=100ms)}.
     */
    public static String formatQueue(final QueueSpec spec)
    {
        final Map<String, String> settings = new LinkedHashMap<>();
        final String kind;
        if (spec instanceof DropQueueSpec drop)
        {
            kind = "drop";
            bounds(settings, 0, drop.max(), drop.drop(), drop.order());
        }
        else if (spec instanceof TimeoutQueueSpec timeout)
        {
            kind = "timeout";
            settings.put("timeout", duration(timeout.timeout()));
            bounds(settings, timeout.min(), timeout.max(), timeout.drop(), timeout.order());
        }
        else if (spec instanceof CodelQueueSpec codel)
        {
            kind = "codel";
            if (!codel.target().equals(CodelQueueSpec.DEFAULT_TARGET))
            {
                settings.put("target", duration(codel.target()));
            }
            if (!codel.interval().equals(CodelQueueSpec.DEFAULT_INTERVAL))
            {
                settings.put("interval", duration(codel.interval()));
            }
            if (!codel.sojournLimit().equals(CodelQueueSpec.of(codel.target(), codel.interval()).sojournLimit()))
            {
                settings.put("sojourn-limit", codel.sojournLimit().equals(CodelQueueSpec.NO_SOJOURN_LIMIT) ? "none" :
                    duration(codel.sojournLimit()));
            }
            bounds(settings, codel.min(), codel.max(), codel.drop(), codel.order());
        }
        else if (spec instanceof FairQueueSpec fair)
        {
            kind = "fair";
            settings.put("key", fair.key() instanceof FairKey.Standard standard ?
                standard.name().toLowerCase(Locale.ROOT).replace('_', '-') : "custom");
            settings.put("inner", formatQueue(fair.inner()));
        }
        else
        {
            return spec.getClass().getSimpleName();
        }
        final StringJoiner joined = new StringJoiner(",", kind + "(", ")");
        settings.forEach((name, value) -> joined.add(name + "=" + value));
        return joined.toString();
    }

    private static void bounds(final Map<String, String> settings, final int min, final int max, final DropEnd drop,
        final ServeOrder order)
    {
        if (min != 0)
        {
            settings.put("min", Integer.toString(min));
        }
        if (max != DropQueueSpec.UNBOUNDED)
        {
            settings.put("max", Integer.toString(max));
        }
        if (drop != DropEnd.TAIL)
        {
            settings.put("drop", drop.name().toLowerCase(Locale.ROOT));
        }
        if (order != ServeOrder.FIFO)
        {
            settings.put("order", order.name().toLowerCase(Locale.ROOT));
        }
    }

    private static String formatMeter(final MeterSpec meter)
    {
        if (meter instanceof OverloadMeterSpec overload)
        {
            return "overload(target=" + duration(overload.target()) + ",interval=" + duration(overload.interval()) +
                ",alarm=" + overload.alarmName() + ")";
        }
        if (meter instanceof PieProtectorSpec pie)
        {
            return "pie(target=" + duration(pie.target()) + ",interval=" + duration(pie.interval()) + ")";
        }
        if (meter instanceof UpdateMeterSpec update)
        {
            return "update(regulator=" + update.regulator() + ",side=" + update.side() + ",period=" +
                duration(update.period()) + ")";
        }
        return meter.getClass().getSimpleName();
    }

    /**
     * A duration in the largest unit that shows it whole: {@code 5ms}, {@code 250us}, {@code 1500ms}, {@code 2s}.
     *
     * @param duration the duration.
     * @return its text.
     */
    public static String duration(final Duration duration)
    {
        final long nanos;
        try
        {
            nanos = duration.toNanos();
        }
        catch (final ArithmeticException ex)
        {
            return duration.toSeconds() + "s";
        }
        final long[] units = {3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L};
        final String[] names = {"h", "m", "s", "ms", "us"};
        for (int i = 0; i < units.length; i++)
        {
            if (nanos != 0 && nanos % units[i] == 0)
            {
                return nanos / units[i] + names[i];
            }
        }
        return nanos + "ns";
    }

    /**
     * Reads a queue policy.
     *
     * @param text e.g. {@code codel(target=5ms,interval=100ms)}, {@code drop(max=1000)}, {@code timeout(timeout=2s)}.
     * @return the spec.
     * @throws IllegalArgumentException naming what is wrong: an unknown policy or setting, a bad value, a value the
     *                                  spec refuses, text left over, or text longer than {@link #MAX_LENGTH}.
     */
    public static QueueSpec parseQueue(final String text)
    {
        if (text.length() > MAX_LENGTH)
        {
            throw new IllegalArgumentException("a queue policy is at most " + MAX_LENGTH + " characters, this one is " +
                text.length());
        }
        final BrokerSpecText reader = new BrokerSpecText(text.replace(" ", ""));
        final QueueSpec spec = reader.policy();
        if (reader.at != reader.text.length())
        {
            throw new IllegalArgumentException("unexpected '" + reader.text.substring(reader.at) + "' after " +
                reader.text.substring(0, reader.at));
        }
        return spec;
    }

    private QueueSpec policy()
    {
        final int start = at;
        while (at < text.length() && Character.isLetter(text.charAt(at)))
        {
            at++;
        }
        final String kind = text.substring(start, at);
        final Map<String, String> settings = new LinkedHashMap<>();
        if (at < text.length() && text.charAt(at) == '(')
        {
            at++;
            while (at < text.length() && text.charAt(at) != ')')
            {
                final int nameStart = at;
                while (at < text.length() && text.charAt(at) != '=' && text.charAt(at) != ')' && text.charAt(at) != ',')
                {
                    at++;
                }
                final String name = text.substring(nameStart, at);
                if (at >= text.length() || text.charAt(at) != '=')
                {
                    throw new IllegalArgumentException(kind + ": '" + name + "' needs a value (" + name + "=...)");
                }
                at++;
                final String value = "inner".equals(name) ? innerText() : simpleValue();
                if (settings.put(name, value) != null)
                {
                    throw new IllegalArgumentException(kind + ": " + name + " is given twice");
                }
                if (at < text.length() && text.charAt(at) == ',')
                {
                    at++;
                }
            }
            if (at >= text.length())
            {
                throw new IllegalArgumentException(kind + "(...: a ')' is missing");
            }
            at++;
        }
        return build(kind, settings);
    }

    private String simpleValue()
    {
        final int start = at;
        while (at < text.length() && text.charAt(at) != ',' && text.charAt(at) != ')')
        {
            at++;
        }
        return text.substring(start, at);
    }

    private String innerText()
    {
        final int start = at;
        int depth = 0;
        while (at < text.length())
        {
            final char c = text.charAt(at);
            if (c == '(')
            {
                depth++;
            }
            else if (c == ')')
            {
                if (depth == 0)
                {
                    break;
                }
                depth--;
            }
            else if (c == ',' && depth == 0)
            {
                break;
            }
            at++;
        }
        return text.substring(start, at);
    }

    private static QueueSpec build(final String kind, final Map<String, String> settings)
    {
        final Settings in = new Settings(kind, settings);
        final QueueSpec spec;
        switch (kind)
        {
            case "drop":
                in.allow("max", "drop", "order");
                spec = new DropQueueSpec(in.max(), in.dropEnd(), in.order());
                break;
            case "timeout":
                in.allow("timeout", "min", "max", "drop", "order");
                spec = new TimeoutQueueSpec(in.duration("timeout", null), in.count("min", 0), in.max(), in.dropEnd(),
                    in.order());
                break;
            case "codel":
                in.allow("target", "interval", "sojourn-limit", "min", "max", "drop", "order");
                final Duration target = in.duration("target", CodelQueueSpec.DEFAULT_TARGET);
                final Duration interval = in.duration("interval", CodelQueueSpec.DEFAULT_INTERVAL);
                final CodelQueueSpec defaults = CodelQueueSpec.of(target, interval);
                final Duration limit = "none".equals(settings.get("sojourn-limit")) ? CodelQueueSpec.NO_SOJOURN_LIMIT :
                    in.duration("sojourn-limit", defaults.sojournLimit());
                spec = new CodelQueueSpec(target, interval, limit, in.count("min", 0), in.max(), in.dropEnd(),
                    in.order());
                break;
            case "fair":
                in.allow("key", "inner");
                spec = new FairQueueSpec(settings.containsKey("inner") ? parseQueue(settings.get("inner")) :
                    DropQueueSpec.unbounded(), in.fairKey());
                break;
            default:
                throw new IllegalArgumentException("unknown queue policy '" + kind + "': drop, timeout, codel or fair");
        }
        return spec;
    }

    /** One policy's settings, read with messages that name the policy and the setting. */
    private static final class Settings
    {
        private final String kind;
        private final Map<String, String> values;

        Settings(final String kind, final Map<String, String> values)
        {
            this.kind = kind;
            this.values = values;
        }

        void allow(final String... names)
        {
            for (final String name : values.keySet())
            {
                if (!List.of(names).contains(name))
                {
                    throw new IllegalArgumentException(kind + " has no setting '" + name + "': it takes " +
                        String.join(", ", names));
                }
            }
        }

        int count(final String name, final int fallback)
        {
            final String value = values.get(name);
            if (value == null)
            {
                return fallback;
            }
            try
            {
                return Integer.parseInt(value);
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException(kind + "." + name + " is a count, not '" + value + "'", ex);
            }
        }

        int max()
        {
            return "unbounded".equals(values.get("max")) ? DropQueueSpec.UNBOUNDED :
                count("max", DropQueueSpec.UNBOUNDED);
        }

        DropEnd dropEnd()
        {
            return choice("drop", DropEnd.class, DropEnd.TAIL);
        }

        ServeOrder order()
        {
            return choice("order", ServeOrder.class, ServeOrder.FIFO);
        }

        FairKey fairKey()
        {
            final String value = values.get("key");
            if (value == null)
            {
                return FairKey.CLIENT_NODE;
            }
            try
            {
                return FairKey.Standard.valueOf(value.toUpperCase(Locale.ROOT).replace('-', '_'));
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalArgumentException(kind + ".key is client-node, client-actor or request-key, not '" +
                    value + "'", ex);
            }
        }

        private <E extends Enum<E>> E choice(final String name, final Class<E> type, final E fallback)
        {
            final String value = values.get(name);
            if (value == null)
            {
                return fallback;
            }
            try
            {
                return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
            }
            catch (final IllegalArgumentException ex)
            {
                final StringJoiner allowed = new StringJoiner(" or ");
                for (final E constant : type.getEnumConstants())
                {
                    allowed.add(constant.name().toLowerCase(Locale.ROOT));
                }
                throw new IllegalArgumentException(kind + "." + name + " is " + allowed + ", not '" + value + "'", ex);
            }
        }

        Duration duration(final String name, final Duration fallback)
        {
            final String value = values.get(name);
            if (value == null)
            {
                if (fallback == null)
                {
                    throw new IllegalArgumentException(kind + " needs " + name + " (e.g. " + name + "=500ms)");
                }
                return fallback;
            }
            int split = 0;
            while (split < value.length() && Character.isDigit(value.charAt(split)))
            {
                split++;
            }
            final String unit = value.substring(split);
            final long amount;
            try
            {
                amount = Long.parseLong(value.substring(0, split));
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException(kind + "." + name + " is a duration such as 5ms or 2s, not '" +
                    value + "'", ex);
            }
            try
            {
                switch (unit)
                {
                    case "ns":
                        return Duration.ofNanos(amount);
                    case "us":
                        return Duration.ofNanos(Math.multiplyExact(amount, 1_000L));
                    case "ms":
                        return Duration.ofMillis(amount);
                    case "s":
                        return Duration.ofSeconds(amount);
                    case "m":
                        return Duration.ofMinutes(amount);
                    case "h":
                        return Duration.ofHours(amount);
                    default:
                        throw new IllegalArgumentException(kind + "." + name +
                            " needs a unit (ns, us, ms, s, m, h): '" + value + "'");
                }
            }
            catch (final ArithmeticException ex)
            {
                throw new IllegalArgumentException(kind + "." + name + " is too long: " + value, ex);
            }
        }
    }
}
