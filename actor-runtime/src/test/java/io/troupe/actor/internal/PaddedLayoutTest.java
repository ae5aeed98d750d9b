package io.troupe.actor.internal;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runtime's objects that every worker reads or writes on every event keep 128 bytes of padding on both sides of
 * their fields, as laid out by this JVM: a collection copies objects next to whatever referred to them, and a busy
 * mailbox that lands on a line another worker reads on every event halves 4-pair ping-pong for the life of the
 * process (benchmarks/README.md, "What sets the mode"). Field offsets come from {@code sun.misc.Unsafe}, reached by
 * reflection.
 */
class PaddedLayoutTest
{
    private static final int PAD_BYTES = 128;

    @ParameterizedTest
    @ValueSource(strings = {
        "io.troupe.actor.internal.Router",
        "io.troupe.actor.internal.Dispatcher",
        "io.troupe.actor.internal.ContextImpl",
        "io.troupe.actor.internal.executor.ExecutorPool",
        "io.troupe.actor.internal.executor.Worker",
        "io.troupe.actor.internal.executor.LocalRunQueue",
        "io.troupe.actor.internal.mailbox.MailboxTable"})
    void fieldsSitBetweenTwoPads(final String className) throws Exception
    {
        final List<long[]> leftPad = new ArrayList<>();
        final List<long[]> rightPad = new ArrayList<>();
        final List<long[]> fields = new ArrayList<>();
        final List<String> names = new ArrayList<>();
        for (Class<?> c = Class.forName(className); c != Object.class; c = c.getSuperclass())
        {
            for (final Field field : c.getDeclaredFields())
            {
                if (Modifier.isStatic(field.getModifiers()))
                {
                    continue;
                }
                final long[] span = {offset(field), offset(field) + size(field.getType())};
                if (field.getName().equals("holeFill") || field.getName().matches("p\\d\\d"))
                {
                    leftPad.add(span);
                }
                else if (field.getName().matches("q\\d\\d"))
                {
                    rightPad.add(span);
                }
                else
                {
                    fields.add(span);
                    names.add(c.getSimpleName() + "." + field.getName());
                }
            }
        }
        assertThat(fields).as("fields of %s", className).isNotEmpty();
        final long firstField = fields.stream().mapToLong(s -> s[0]).min().orElseThrow();
        final long lastFieldEnd = fields.stream().mapToLong(s -> s[1]).max().orElseThrow();
        final long leftStart = leftPad.stream().mapToLong(s -> s[0]).min().orElseThrow();
        final long leftEnd = leftPad.stream().mapToLong(s -> s[1]).max().orElseThrow();
        final long rightStart = rightPad.stream().mapToLong(s -> s[0]).min().orElseThrow();
        final long rightEnd = rightPad.stream().mapToLong(s -> s[1]).max().orElseThrow();
        assertThat(leftEnd).as("left pad of %s ends before its fields %s", className, names)
            .isLessThanOrEqualTo(firstField);
        assertThat(leftEnd - leftStart).as("left pad of %s", className).isGreaterThanOrEqualTo(PAD_BYTES);
        assertThat(rightStart).as("right pad of %s starts after its fields %s", className, names)
            .isGreaterThanOrEqualTo(lastFieldEnd);
        assertThat(rightEnd - rightStart).as("right pad of %s", className).isGreaterThanOrEqualTo(PAD_BYTES);
    }

    private static long offset(final Field field) throws Exception
    {
        final Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
        final Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
        theUnsafe.setAccessible(true);
        final Method objectFieldOffset = unsafeClass.getMethod("objectFieldOffset", Field.class);
        return (Long)objectFieldOffset.invoke(theUnsafe.get(null), field);
    }

    private static long size(final Class<?> type)
    {
        if (type == long.class || type == double.class)
        {
            return 8;
        }
        if (type == int.class || type == float.class)
        {
            return 4;
        }
        if (type == short.class || type == char.class)
        {
            return 2;
        }
        if (type == byte.class || type == boolean.class)
        {
            return 1;
        }
        return 4; // a reference, compressed (the default below 32 GiB of heap); 8 otherwise, still inside the pads
    }
}
