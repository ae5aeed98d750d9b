package io.troupe.bench.jmh;

import io.troupe.actor.CreditAccount;
import io.troupe.actor.FlowControl;
import io.troupe.actor.FlowControlConfig;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one charge to a credit account costs a sending thread, alone and with other threads charging the same
 * account at once (as the producers of {@code local.fanin} charge the node's account), next to the two obvious
 * alternatives: one atomic counter, and a {@link LongAdder}. Average time per charge, in ns:
 *
 * <pre>
 * java -jar benchmarks/target/troupe-benchmarks.jar jmh CreditChargeBench -f 1 -wi 3 -i 5 -w 1 -r 1
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class CreditChargeBench
{
    /** One account, one atomic counter and one adder, charged by every benchmark thread. */
    @State(Scope.Benchmark)
    public static class Shared
    {
        final CreditAccount account =
            new FlowControl(new FlowControlConfig(), 1, (waiter, cleared) -> { }).openAccount();
        final AtomicLong atomic = new AtomicLong();
        final LongAdder adder = new LongAdder();

        /** Nothing to set up beyond the fields; present so JMH builds the state before the first call. */
        @Setup
        public void setUp()
        {
            account.charge(0);
        }
    }

    /**
     * A credit account's charge, one thread.
     *
     * @param shared the account.
     */
    @Benchmark
    @Threads(1)
    public void account1(final Shared shared)
    {
        shared.account.charge(1);
    }

    /**
     * A credit account's charge, 4 threads on one account.
     *
     * @param shared the account.
     */
    @Benchmark
    @Threads(4)
    public void account4(final Shared shared)
    {
        shared.account.charge(1);
    }

    /**
     * One atomic add, 4 threads on one counter (how accounts charged before).
     *
     * @param shared the counter.
     */
    @Benchmark
    @Threads(4)
    public void atomic4(final Shared shared)
    {
        shared.atomic.getAndAdd(1);
    }

    /**
     * A {@code LongAdder}, 4 threads on one adder.
     *
     * @param shared the adder.
     */
    @Benchmark
    @Threads(4)
    public void adder4(final Shared shared)
    {
        shared.adder.add(1);
    }
}
