package io.troupe.bench.jmh;

import io.troupe.memquota.Account;
import io.troupe.memquota.CoarseClock;
import io.troupe.memquota.MemoryQuotaConfig;
import io.troupe.memquota.MemoryQuotaTracker;
import io.troupe.memquota.Participant;
import io.troupe.memquota.Participation;
import io.troupe.memquota.Reclaimed;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * Cost of the memory quota's claim path: one {@code participation.claim(64)} followed by
 * {@code participation.release(64)}, which stays within the participation's local cache (the tracker's max is
 * 1 GiB, so nothing is ever reclaimed). One operation is one claim/release pair; the target is at most 20 ns
 * per pair uncontended.
 *
 * <ul>
 *   <li>{@link #claim}: one thread, one participation.</li>
 *   <li>{@link #claimSharedParticipation}: 2 threads on ONE participation (both hit its local cache).</li>
 *   <li>{@link #claimOwnParticipation}: 2 threads, each with its own participation of the same account.</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class MemoryQuotaBench
{
    /** Bytes claimed and released per operation. */
    static final long CLAIM_BYTES = 64;
    /** The tracker's max: large enough that nothing reclaims. */
    static final long MAX_BYTES = 1L << 30;

    /**
     * Claims and releases on the shared participation; run by one thread.
     *
     * @param shared the tracker, account and shared participation.
     */
    @Benchmark
    @Threads(1)
    public void claim(final Shared shared)
    {
        shared.participation.claim(CLAIM_BYTES);
        shared.participation.release(CLAIM_BYTES);
    }

    /**
     * Claims and releases on one participation from 2 threads.
     *
     * @param shared the tracker, account and shared participation.
     */
    @Benchmark
    @Threads(2)
    public void claimSharedParticipation(final Shared shared)
    {
        shared.participation.claim(CLAIM_BYTES);
        shared.participation.release(CLAIM_BYTES);
    }

    /**
     * Claims and releases from 2 threads, each on its own participation of the same account.
     *
     * @param own this thread's participation.
     */
    @Benchmark
    @Threads(2)
    public void claimOwnParticipation(final Own own)
    {
        own.participation.claim(CLAIM_BYTES);
        own.participation.release(CLAIM_BYTES);
    }

    /** A participant that holds nothing: the tracker holds participants weakly, so the state keeps it. */
    static final class Idle implements Participant
    {
        private static final CompletableFuture<Reclaimed> PARTIAL =
            CompletableFuture.completedFuture(Reclaimed.PARTIAL);

        @Override
        public long oldestDataTimeNs()
        {
            return NO_DATA;
        }

        @Override
        public CompletionStage<Reclaimed> reclaim(final long discardOlderThanNs, final long bytesWanted)
        {
            return PARTIAL;
        }
    }

    /** One tracker with one account and one participation, shared by all threads of a benchmark. */
    @State(Scope.Benchmark)
    public static class Shared
    {
        MemoryQuotaTracker tracker;
        Account account;
        Idle participant;
        Participation participation;

        /** Opens the tracker, the account and the shared participation. */
        @Setup(Level.Trial)
        public void setUp()
        {
            tracker = MemoryQuotaTracker.create(MemoryQuotaConfig.of(MAX_BYTES),
                CoarseClock.cached(TimeUnit.MILLISECONDS.toNanos(1)));
            account = tracker.newAccount();
            participant = new Idle();
            participation = account.register(participant);
        }

        /** Closes the tracker. */
        @TearDown(Level.Trial)
        public void tearDown()
        {
            tracker.close();
        }
    }

    /** A participation of the shared account for one thread. */
    @State(Scope.Thread)
    public static class Own
    {
        Idle participant;
        Participation participation;

        /**
         * Registers this thread's participant with the shared account.
         *
         * @param shared the shared tracker and account.
         */
        @Setup(Level.Trial)
        public void setUp(final Shared shared)
        {
            participant = new Idle();
            participation = shared.account.register(participant);
        }

        /** Withdraws the participation. */
        @TearDown(Level.Trial)
        public void tearDown()
        {
            participation.close();
        }
    }
}
