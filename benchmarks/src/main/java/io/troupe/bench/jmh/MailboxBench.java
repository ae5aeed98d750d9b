package io.troupe.bench.jmh;

import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.internal.mailbox.Mailbox;
import io.troupe.actor.MailboxType;
import io.troupe.actor.QueueLink;
import io.troupe.actor.internal.mailbox.RevolvingMailbox;
import io.troupe.actor.internal.mailbox.SimpleMailbox;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Control;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Offer and poll throughput of the two mailbox queues, {@link SimpleMailbox} and {@link RevolvingMailbox},
 * without the executor: what a send costs at the queue, and what the reader pays to take it.
 *
 * <ul>
 *   <li>{@link #offerPoll}: one thread pushes one envelope and polls it back; one operation is a push/poll
 *       pair on an otherwise empty mailbox.</li>
 *   <li>group {@code mpsc}: {@value #PRODUCERS} threads {@link #push} while one thread {@link #poll}s; read the
 *       per-method rates ({@code mpsc:push}, {@code mpsc:poll}), the group total counts both sides. Producers
 *       back off while more than {@value #MAX_BACKLOG} envelopes are queued, so the queue cannot grow
 *       without bound.</li>
 * </ul>
 *
 * <p>Every push allocates a fresh {@link Envelope}, as a real send does: a node may not be in the queue twice.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class MailboxBench
{
    /** Producer threads of the {@code mpsc} group. */
    static final int PRODUCERS = 3;
    /** Queued envelopes above which producers back off. */
    static final long MAX_BACKLOG = 1 << 16;
    /** Pushes or polls between two updates of the shared counts, to keep their cache lines quiet. */
    static final int PUBLISH_BATCH = 64;

    private static final ActorId RECIPIENT = ActorId.of(1, 1, 1);
    private static final String EVENT = "event";

    /**
     * Pushes a fresh envelope and polls it back.
     *
     * @param state the thread's mailbox.
     * @return the polled node, so it is not dead code.
     */
    @Benchmark
    public QueueLink offerPoll(final SingleThreadState state)
    {
        state.mailbox.push(newEnvelope());
        return state.mailbox.poll();
    }

    /**
     * One producer's push; backs off while the consumer is far behind.
     *
     * @param shared   the group's mailbox and counts.
     * @param producer this producer's unpublished pushes.
     * @param control  tells when the iteration ends, so a waiting producer can leave.
     */
    @Benchmark
    @Group("mpsc")
    @GroupThreads(PRODUCERS)
    public void push(final GroupState shared, final ProducerState producer, final Control control)
    {
        shared.mailbox.push(newEnvelope());
        if (++producer.unpublished == PUBLISH_BATCH)
        {
            producer.unpublished = 0;
            final long pushed = shared.counts.addAndGet(GroupState.PUSHED, PUBLISH_BATCH);
            while (pushed - shared.counts.get(GroupState.POLLED) > MAX_BACKLOG && !control.stopMeasurement)
            {
                Thread.yield(); // producers outnumber cores: give the consumer the CPU
            }
        }
    }

    /**
     * The consumer's poll: waits for the next envelope, or for the iteration to end.
     *
     * @param shared   the group's mailbox and counts.
     * @param consumer the consumer's poll count.
     * @param control  tells when the iteration ends.
     * @return the polled node, or null when the iteration ended first.
     */
    @Benchmark
    @Group("mpsc")
    @GroupThreads(1)
    public QueueLink poll(final GroupState shared, final ConsumerState consumer, final Control control)
    {
        QueueLink node;
        while ((node = shared.mailbox.poll()) == null && !control.stopMeasurement)
        {
            Thread.onSpinWait();
        }
        if (node != null && ++consumer.polled % PUBLISH_BATCH == 0)
        {
            shared.counts.lazySet(GroupState.POLLED, consumer.polled);
        }
        return node;
    }

    private static Envelope newEnvelope()
    {
        return new Envelope(RECIPIENT, ActorId.NONE, 0, 0, 0L, EVENT, null);
    }

    private static Mailbox newMailbox(final MailboxType type)
    {
        return type == MailboxType.SIMPLE ? new SimpleMailbox(1, 0) : new RevolvingMailbox(1, 0);
    }

    /** A mailbox of the thread's own, for {@link #offerPoll}. */
    @State(Scope.Thread)
    public static class SingleThreadState
    {
        /** Mailbox type under test. */
        @Param({"SIMPLE", "REVOLVING"})
        public MailboxType type;
        Mailbox mailbox;

        /** Creates the mailbox. */
        @Setup(Level.Trial)
        public void setUp()
        {
            mailbox = newMailbox(type);
        }
    }

    /** The mailbox of one {@code mpsc} group and its pushed and polled counts; fresh for every iteration. */
    @State(Scope.Group)
    public static class GroupState
    {
        /** Index of the producers' published push count; 128 bytes from the other count. */
        static final int PUSHED = 0;
        /** Index of the consumer's published poll count. */
        static final int POLLED = 16;

        /** Mailbox type under test. */
        @Param({"SIMPLE", "REVOLVING"})
        public MailboxType type;
        Mailbox mailbox;
        AtomicLongArray counts;

        /** Creates an empty mailbox, so one iteration's leftovers do not slow the next. */
        @Setup(Level.Iteration)
        public void setUp()
        {
            mailbox = newMailbox(type);
            counts = new AtomicLongArray(POLLED + 1);
        }
    }

    /** A producer's pushes not yet added to the shared count. */
    @State(Scope.Thread)
    public static class ProducerState
    {
        int unpublished;
    }

    /** The consumer's polls; reset with the group's mailbox. */
    @State(Scope.Thread)
    public static class ConsumerState
    {
        long polled;

        /** Starts counting again for a fresh mailbox. */
        @Setup(Level.Iteration)
        public void setUp()
        {
            polled = 0;
        }
    }
}
