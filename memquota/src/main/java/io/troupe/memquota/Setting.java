package io.troupe.memquota;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One setting of a component, declared once: where it lives in a node's config file, its type, its default, which
 * values are allowed, a line of documentation, whether a running node can take a new value, and how to read it from
 * and write it to the component's config object. Everything else is derived from the declaration: the config class
 * takes its default from {@link #defaultValue()} and validates with {@link #check}, the node's config reader maps a
 * file onto the config with {@link #apply} and copies configs with {@link #copy}, and the reference config file, the
 * configuration docs and the tests are made from the declarations. Adding a setting touches two files: the
 * component's settings declarations (Aeron's {@code Configuration} plays that part) and its config class (the
 * {@code Context}), a field with a getter and a setter.
 *
 * <p>This type lives in the bottom module beside {@link ConfigurationException}, which all config classes throw.
 * Immutable and thread-safe; read at start (or at a reload), never on a hot path.
 *
 * @param <C> the config class it is a setting of.
 * @param <T> the value's type.
 */
public final class Setting<C, T>
{
    /** How a value is written in a config file, and so how it is read and shown. */
    public enum Kind
    {
        /** A whole number ({@code 65536}). */
        INTEGER,
        /** A whole number beyond an int's range ({@code 4611686018427387904}), such as a count of credit units. */
        LONG,
        /** A size in bytes that fits an int, HOCON size units ({@code 64KiB}, a bare number is bytes). */
        SIZE,
        /** A duration, HOCON duration units ({@code 100ms}, {@code 1.5s}; a bare number is milliseconds). */
        DURATION,
        /** {@code true} or {@code false}. */
        BOOLEAN,
        /** A quoted string. */
        STRING,
        /** One of an enum's constants, in lower case in the file ({@code backoff}). */
        ENUM,
        /** A string where the empty string stands for none (null in the config object). */
        OPTIONAL_STRING
    }

    private final String owner;
    private final String key;
    private final String name;
    private final Kind kind;
    private final Class<T> type;
    private final T defaultValue;
    private final String doc;
    private final boolean reloadable;
    private final String allowed;
    private final Predicate<T> valid;
    private final Function<C, T> getter;
    private final BiConsumer<C, T> setter;

    private Setting(final Builder<C, T> builder)
    {
        this.owner = builder.owner;
        this.key = builder.key;
        this.name = builder.name;
        this.kind = builder.kind;
        this.type = builder.type;
        this.defaultValue = builder.defaultValue;
        this.doc = Objects.requireNonNull(builder.doc, () -> "no doc for " + builder.key);
        this.reloadable = builder.reloadable;
        this.allowed = String.join(", ", builder.allowedParts);
        final List<Predicate<T>> checks = List.copyOf(builder.checks);
        this.valid = value -> value != null && checks.stream().allMatch(check -> check.test(value));
        this.getter = builder.getter;
        this.setter = builder.setter;
    }

    /**
     * Starts the declaration of a setting.
     *
     * @param owner        what the setting belongs to, for messages about a config made in code
     *                     ({@code "interconnect"}).
     * @param key          its path in a node's config file, under {@code troupe.}
     *                     ({@code "transport.bulk-term-length"}).
     * @param name         its name in the config class, which {@link ConfigurationException#setting()} carries
     *                     ({@code "bulkTermLength"}).
     * @param kind         how it is written in a file.
     * @param type         the value's Java type.
     * @param defaultValue the default (never null: a setting without one is declared by the node's own reader).
     * @param getter       reads it from a config.
     * @param setter       writes it to a config.
     * @param <C>          the config class.
     * @param <T>          the value's type.
     * @return a builder: add bounds and a doc line, then {@link Builder#build()}.
     */
    public static <C, T> Builder<C, T> builder(final String owner, final String key, final String name,
        final Kind kind, final Class<T> type, final T defaultValue, final Function<C, T> getter,
        final BiConsumer<C, T> setter)
    {
        return new Builder<>(owner, key, name, kind, type, defaultValue, getter, setter);
    }

    /**
     * Its path in a node's config file, under {@code troupe.}.
     *
     * @return the key, e.g. {@code transport.bulk-term-length}.
     */
    public String key()
    {
        return key;
    }

    /**
     * Its name in the config class.
     *
     * @return the name, e.g. {@code bulkTermLength}.
     */
    public String name()
    {
        return name;
    }

    /**
     * How it is written in a file.
     *
     * @return the kind.
     */
    public Kind kind()
    {
        return kind;
    }

    /**
     * The value's Java type.
     *
     * @return the type.
     */
    public Class<T> type()
    {
        return type;
    }

    /**
     * The default.
     *
     * @return the value a config has until it is set.
     */
    public T defaultValue()
    {
        return defaultValue;
    }

    /**
     * One or two sentences on what it does, for the reference file and the docs.
     *
     * @return the text.
     */
    public String doc()
    {
        return doc;
    }

    /**
     * Whether a running node could take a new value; no setting of this kind is reloaded yet, the flag records which
     * could be.
     *
     * @return true if reloadable.
     */
    public boolean reloadable()
    {
        return reloadable;
    }

    /**
     * What is allowed, in words made from the bounds ({@code "a power of 2, 64KiB..1GiB"}); empty if any value of the
     * type is.
     *
     * @return the text.
     */
    public String allowed()
    {
        return allowed;
    }

    /**
     * The value in a config.
     *
     * @param config the config.
     * @return its value.
     */
    public T get(final C config)
    {
        return getter.apply(config);
    }

    /**
     * Sets the value in a config, unchecked (the config's own validation checks it).
     *
     * @param config the config.
     * @param value  the value.
     */
    public void apply(final C config, final T value)
    {
        setter.accept(config, value);
    }

    /**
     * Copies the value from one config to another.
     *
     * @param from the source.
     * @param to   the target.
     */
    public void copy(final C from, final C to)
    {
        setter.accept(to, getter.apply(from));
    }

    /**
     * Whether a value is allowed.
     *
     * @param value the value.
     * @return true if it is within every bound (never for null).
     */
    public boolean isValid(final T value)
    {
        return valid.test(value);
    }

    /**
     * Checks a config's value against the bounds.
     *
     * @param config the config.
     * @throws ConfigurationException naming the setting, the value and what is allowed, if it is not.
     */
    public void check(final C config)
    {
        requireValid(getter.apply(config));
    }

    /**
     * Checks a value against the bounds, for a config class whose setter refuses a value at once.
     *
     * @param value the value.
     * @return the value, if allowed.
     * @throws ConfigurationException naming the setting, the value and what is allowed, if it is not.
     */
    public T requireValid(final T value)
    {
        if (!valid.test(value))
        {
            throw new ConfigurationException(name, format(value), allowed,
                owner + " setting " + name + " = " + format(value) + " is invalid: allowed " + allowed);
        }
        return value;
    }

    /**
     * A value as a config file would write it: sizes and durations in their largest exact unit ({@code 64KiB},
     * {@code 1500ms}), enums in lower case, strings quoted.
     *
     * @param value the value (null: {@code null}).
     * @return the text.
     */
    public String format(final T value)
    {
        return formatValue(kind, value);
    }

    static String formatValue(final Kind kind, final Object value)
    {
        if (value == null)
        {
            return "null";
        }
        return switch (kind)
        {
            case SIZE -> size(((Number)value).longValue());
            case DURATION -> duration((Duration)value);
            case ENUM -> ((Enum<?>)value).name().toLowerCase(Locale.ROOT);
            case STRING, OPTIONAL_STRING -> "\"" + value + "\"";
            default -> String.valueOf(value);
        };
    }

    /**
     * A size in its largest exact binary unit: {@code 64KiB}, {@code 1GiB}, {@code 8KiB}; a size under 4KiB stays
     * in bytes ({@code 1024}, {@code 1408}), as MTUs and thresholds are written.
     *
     * @param bytes the size.
     * @return the text.
     */
    public static String size(final long bytes)
    {
        final String[] units = {"GiB", "MiB", "KiB"};
        final int[] shifts = {30, 20, 10};
        for (int i = 0; i < units.length; i++)
        {
            final long unit = 1L << shifts[i];
            if (bytes >= 4096 && bytes % unit == 0)
            {
                return bytes / unit + units[i];
            }
        }
        return Long.toString(bytes);
    }

    /**
     * A duration in its largest exact HOCON unit: {@code 1500ms}, {@code 10s}, {@code 10m}, {@code 100us}.
     *
     * @param duration the duration.
     * @return the text.
     */
    public static String duration(final Duration duration)
    {
        final long nanos = duration.toNanos();
        final String[] units = {"d", "h", "m", "s", "ms", "us"};
        final long[] sizes = {86_400_000_000_000L, 3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L, 1_000_000L,
            1_000L};
        for (int i = 0; i < units.length; i++)
        {
            if (nanos != 0 && nanos % sizes[i] == 0)
            {
                return nanos / sizes[i] + units[i];
            }
        }
        return nanos == 0 ? "0ms" : nanos + "ns";
    }

    @Override
    public String toString()
    {
        return "troupe." + key + " (" + owner + " " + name + ")";
    }

    /**
     * Declares a setting: bounds, a doc line, whether it is reloadable.
     *
     * @param <C> the config class.
     * @param <T> the value's type.
     */
    public static final class Builder<C, T>
    {
        private final String owner;
        private final String key;
        private final String name;
        private final Kind kind;
        private final Class<T> type;
        private final T defaultValue;
        private final Function<C, T> getter;
        private final BiConsumer<C, T> setter;
        private final List<String> allowedParts = new ArrayList<>();
        private final List<Predicate<T>> checks = new ArrayList<>();
        private String doc;
        private boolean reloadable;

        private Builder(final String owner, final String key, final String name, final Kind kind, final Class<T> type,
            final T defaultValue, final Function<C, T> getter, final BiConsumer<C, T> setter)
        {
            this.owner = Objects.requireNonNull(owner, "owner");
            this.key = Objects.requireNonNull(key, "key");
            this.name = Objects.requireNonNull(name, "name");
            this.kind = Objects.requireNonNull(kind, "kind");
            this.type = Objects.requireNonNull(type, "type");
            this.defaultValue = Objects.requireNonNull(defaultValue, () -> "no default for " + key);
            this.getter = Objects.requireNonNull(getter, "getter");
            this.setter = Objects.requireNonNull(setter, "setter");
        }

        /**
         * Allows values from {@code min} to {@code max}, both included.
         *
         * @param min the least allowed.
         * @param max the greatest allowed.
         * @return this.
         */
        @SuppressWarnings("unchecked")
        public Builder<C, T> range(final T min, final T max)
        {
            final Comparable<T> low = (Comparable<T>)min;
            final Comparable<T> high = (Comparable<T>)max;
            return allowed(formatValue(kind, min) + ".." + formatValue(kind, max),
                value -> low.compareTo(value) <= 0 && high.compareTo(value) >= 0);
        }

        /**
         * Allows only powers of two (of an int or long value).
         *
         * @return this.
         */
        public Builder<C, T> powerOfTwo()
        {
            return allowed("a power of 2", value -> Long.bitCount(((Number)value).longValue()) == 1);
        }

        /**
         * Allows only multiples of a number (of an int or long value).
         *
         * @param factor the number.
         * @return this.
         */
        public Builder<C, T> multipleOf(final long factor)
        {
            return allowed("a multiple of " + factor, value -> ((Number)value).longValue() % factor == 0);
        }

        /**
         * Allows only values a predicate accepts.
         *
         * @param text  what it allows, in words ({@code "a host name or address"}).
         * @param check the predicate.
         * @return this.
         */
        public Builder<C, T> allowed(final String text, final Predicate<T> check)
        {
            allowedParts.add(text);
            checks.add(check);
            return this;
        }

        /**
         * The setting's documentation: what it does, and what to consider when changing it.
         *
         * @param text one or two sentences.
         * @return this.
         */
        public Builder<C, T> doc(final String text)
        {
            this.doc = text;
            return this;
        }

        /**
         * Marks the setting as one a running node could take a new value of.
         *
         * @return this.
         */
        public Builder<C, T> reloadable()
        {
            this.reloadable = true;
            return this;
        }

        /**
         * Ends the declaration.
         *
         * @return the setting.
         */
        public Setting<C, T> build()
        {
            if (kind == Kind.ENUM && allowedParts.isEmpty())
            {
                final List<String> names = new ArrayList<>();
                for (final T constant : type.getEnumConstants())
                {
                    names.add(formatValue(kind, constant));
                }
                allowedParts.add(String.join(" or ", names));
            }
            return new Setting<>(this);
        }
    }
}
