package io.troupe.actor.internal.mailbox;

import io.troupe.actor.MailboxType;
import io.troupe.actor.QueueLink;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Padding between the mailbox's own fields and the senders' fields of a {@link RevolvingMailbox}. */
abstract class RevolvingPadBefore extends Mailbox
{
    /** Fills a 4-byte hole the mailbox's fields may leave, so no sender field is placed among them. */
    int holeFill;
    long p00;
    long p01;
    long p02;
    long p03;
    long p04;
    long p05;
    long p06;
    long p07;
    long p08;
    long p09;
    long p10;
    long p11;
    long p12;
    long p13;
    long p14;
    long p15;

    RevolvingPadBefore(final int hint, final int poolId)
    {
        super(hint, poolId);
    }
}

/** The fields senders write on every event, alone on their cache lines. */
abstract class RevolvingProducerFields extends RevolvingPadBefore
{
    /** Next slot index to claim, incremented by every sender. */
    volatile long producerIndex;
    /** A recent segment senders start their search from; only moves forward. */
    volatile RevolvingMailbox.Segment producerSegment;

    RevolvingProducerFields(final int hint, final int poolId)
    {
        super(hint, poolId);
    }
}

/** Padding between the senders' fields and the reader's fields of a {@link RevolvingMailbox}. */
abstract class RevolvingPadAfter extends RevolvingProducerFields
{
    /**
     * Fills the 4-byte hole the senders' fields leave: the JVM puts a subclass field into such a hole, and a
     * reader's field there would share a cache line with the senders' counter.
     */
    int holeFill;
    long q00;
    long q01;
    long q02;
    long q03;
    long q04;
    long q05;
    long q06;
    long q07;
    long q08;
    long q09;
    long q10;
    long q11;
    long q12;
    long q13;
    long q14;
    long q15;

    RevolvingPadAfter(final int hint, final int poolId)
    {
        super(hint, poolId);
    }
}

/**
 * A mailbox on a segmented MPSC array: a sender claims a slot with one fetch-and-add and stores into it;
 * segments of {@value #SEGMENT_SIZE} slots are linked on demand. Senders never retry a failed CAS in a loop
 * on the queue's hot path (wait-free claims), so it holds up under many concurrent senders; the reader walks
 * an array, which lets the CPU fetch several envelopes at once.
 *
 * <p>When the reader leaves a segment it replaces the segment's link with a RETIRED marker, so used segments
 * never hold on to later ones (a segment promoted to the old generation would otherwise keep the whole tail
 * of the queue alive until a full collection). A sender that meets the marker restarts from the reader's
 * segment, which cannot be past the sender's unfilled slot.
 *
 * <p>The senders' claim counter is padded away from the reader's fields, so under fan-in the reader's
 * per-event writes do not bounce the line senders increment.
 *
 * <p>Costs more memory than {@link SimpleMailbox} (one segment is allocated eagerly): use it for actors that
 * many threads send to at once.
 */
public final class RevolvingMailbox extends RevolvingPadAfter
{
    /** Slots per segment. */
    public static final int SEGMENT_SIZE = 256;
    private static final int SEGMENT_MASK = SEGMENT_SIZE - 1;

    private static final VarHandle PRODUCER_INDEX;
    private static final VarHandle PRODUCER_SEGMENT;
    private static final VarHandle CONSUMER_SEGMENT;
    private static final VarHandle SEGMENT_NEXT;
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(QueueLink[].class);
    /** Marks a segment the reader has left; its successor is no longer reachable through it. */
    private static final Segment RETIRED = new Segment(Long.MIN_VALUE);

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            PRODUCER_INDEX = lookup.findVarHandle(RevolvingProducerFields.class, "producerIndex", long.class);
            PRODUCER_SEGMENT = lookup.findVarHandle(RevolvingProducerFields.class, "producerSegment", Segment.class);
            CONSUMER_SEGMENT = lookup.findVarHandle(RevolvingMailbox.class, "consumerSegment", Segment.class);
            SEGMENT_NEXT = lookup.findVarHandle(Segment.class, "next", Segment.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /** The reader's segment, published for senders that fall back to it when their hint is ahead of their slot. */
    @SuppressWarnings("unused") // accessed through CONSUMER_SEGMENT
    private volatile Segment consumerSegment;
    private long consumerIndex;
    /** The reader's own copy of its segment: read on every poll without touching the published field. */
    private Segment readerSegment;

    /**
     * Creates an empty mailbox.
     *
     * @param hint   index in the node's table.
     * @param poolId pool it is pinned to.
     */
    public RevolvingMailbox(final int hint, final int poolId)
    {
        super(hint, poolId);
        final Segment first = new Segment(0);
        PRODUCER_SEGMENT.setRelease(this, first);
        readerSegment = first;
        CONSUMER_SEGMENT.setRelease(this, first);
    }

    @Override
    public MailboxType type()
    {
        return MailboxType.REVOLVING;
    }

    @Override
    public void push(final QueueLink node)
    {
        clearNext(node);
        final long index = (long)PRODUCER_INDEX.getAndAdd(this, 1L);
        Segment segment = (Segment)PRODUCER_SEGMENT.getAcquire(this);
        if (segment.base > index)
        {
            // this sender was overtaken; the reader cannot pass an unfilled slot, so its segment is not ahead
            segment = (Segment)CONSUMER_SEGMENT.getAcquire(this);
        }
        while (index >= segment.base + SEGMENT_SIZE)
        {
            final Segment next = (Segment)SEGMENT_NEXT.getAcquire(segment);
            if (next == RETIRED)
            {
                // the reader has left this segment; it cannot be past our unfilled slot, so restart from its
                segment = (Segment)CONSUMER_SEGMENT.getAcquire(this);
            }
            else if (next == null)
            {
                final Segment created = new Segment(segment.base + SEGMENT_SIZE);
                if (SEGMENT_NEXT.compareAndSet(segment, null, created))
                {
                    segment = created;
                    advanceProducerSegment(created);
                }
                // else: linked or retired meanwhile; look again
            }
            else
            {
                segment = next;
                advanceProducerSegment(next);
            }
        }
        SLOTS.setRelease(segment.slots, (int)(index & SEGMENT_MASK), node);
    }

    private void advanceProducerSegment(final Segment segment)
    {
        final Segment current = (Segment)PRODUCER_SEGMENT.getAcquire(this);
        if (current.base < segment.base)
        {
            PRODUCER_SEGMENT.compareAndSet(this, current, segment); // losing means someone moved it on: fine
        }
    }

    @Override
    protected QueueLink pollQueue()
    {
        Segment segment = readerSegment;
        final long index = consumerIndex;
        if (index >= segment.base + SEGMENT_SIZE)
        {
            final Segment next = (Segment)SEGMENT_NEXT.getAcquire(segment);
            if (next == null)
            {
                return null; // the sender of the next slot has not linked the next segment yet
            }
            readerSegment = next;
            CONSUMER_SEGMENT.setRelease(this, next);
            // unlink the used segment: a promoted segment must not keep every later one alive (nepotism)
            SEGMENT_NEXT.setRelease(segment, RETIRED);
            segment = next;
        }
        final int offset = (int)(index & SEGMENT_MASK);
        final QueueLink node = (QueueLink)SLOTS.getAcquire(segment.slots, offset);
        if (node == null)
        {
            return null;
        }
        // the slot is not cleared: that would be one more write per event into a line senders are writing,
        // and a used segment is dropped whole once the reader leaves it
        consumerIndex = index + 1;
        return node;
    }

    @Override
    protected QueueLink peekQueue()
    {
        final Segment segment = readerSegment;
        final long index = consumerIndex;
        if (segment == null || index < segment.base || index >= segment.base + SEGMENT_SIZE)
        {
            return null; // between segments: no age this time
        }
        return (QueueLink)SLOTS.getAcquire(segment.slots, (int)(index & SEGMENT_MASK));
    }

    @Override
    protected boolean queuePending()
    {
        return (long)PRODUCER_INDEX.getVolatile(this) != consumerIndex;
    }

    static final class Segment
    {
        final long base;
        final QueueLink[] slots = new QueueLink[SEGMENT_SIZE];
        @SuppressWarnings("unused") // accessed through SEGMENT_NEXT
        volatile Segment next;

        Segment(final long base)
        {
            this.base = base;
        }
    }
}
