package io.troupe.interconnect;

import io.troupe.memquota.Account;
import io.troupe.memquota.CoarseClock;
import io.troupe.memquota.CollapseReason;
import io.troupe.memquota.CollapsedException;
import io.troupe.memquota.MemoryQuotaException;
import io.troupe.memquota.Participant;
import io.troupe.memquota.Participation;
import io.troupe.memquota.Reclaimed;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/** What senders and the agent both read, rarely written. */
abstract class OutboundQueueShared
{
    /** Written once, by whoever collapses the queue; read by every send and receive. */
    volatile CollapseReason collapsed;
}

/** Padding between the shared fields and the senders' fields of an {@link OutboundQueue}. */
abstract class OutboundQueuePadBefore extends OutboundQueueShared
{
    /** Fills a 4-byte hole the fields above may leave, so no sender field is placed among them. */
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
}

/** The fields senders write on every frame, on cache lines of their own. */
abstract class OutboundQueueSenderFields extends OutboundQueuePadBefore
{
    /** Frames senders counted in (a refused one counts itself out again), incremented by every sender. */
    volatile long counted;
    /** The last frame linked; exchanged by every sender. */
    volatile OutboundFrame tail;
    /**
     * A recent value of {@code taken}, so a send reads the agent's line only when the queue looks full. Written by
     * senders only then, racily: any value it holds is at most the real count, so a stale one can only make a send
     * look again, never let it past the capacity.
     */
    volatile long takenSeen;
}

/** Padding between the senders' fields and the agent's fields of an {@link OutboundQueue}. */
abstract class OutboundQueuePadAfter extends OutboundQueueSenderFields
{
    /** Fills the hole the senders' fields may leave: an agent field there would share their line. */
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
}

/** The fields the interconnect agent writes on every frame it takes. */
abstract class OutboundQueueAgentFields extends OutboundQueuePadAfter
{
    /** The consumer's position: the next frame to take, or the stub. */
    OutboundFrame head;
    /** Frames taken; written by the agent only. */
    volatile long taken;
    /** Bytes of taken frames not yet given back to the quota: returned in one release per drain. */
    long unreleasedBytes;
}

/** Padding behind the agent's fields. */
abstract class OutboundQueuePadEnd extends OutboundQueueAgentFields
{
    int holeFill;
    long r00;
    long r01;
    long r02;
    long r03;
    long r04;
    long r05;
    long r06;
    long r07;
    long r08;
    long r09;
    long r10;
    long r11;
    long r12;
    long r13;
    long r14;
    long r15;
}

/**
 * The frames waiting for one peer: a bounded, memory-quota-tracked queue that allocates nothing per frame. It is
 * an intrusive many-to-one linked list (each {@link OutboundFrame} carries its own link and enqueue stamp):
 * senders on any thread link frames with one exchange on the tail; the interconnect agent alone unlinks them.
 *
 * <p>Senders and the agent share no cache line they write per frame: senders count frames in ({@code counted}) and
 * link them on their lines, the agent counts them out ({@code taken}) on its own; a sender reads the agent's count
 * only when its cached copy says the queue is full. The agent gives the taken frames' bytes back to the memory quota
 * once per drain ({@link #releaseTaken}) rather than once per frame, so the quota's use overstates the queue by at
 * most the frames of the drain in progress.
 *
 * <p>Collapse: when the memory quota reclaims the queue (it held the oldest data while the node was over its
 * quota), its claimed bytes are forgotten at once and every later send is refused with a
 * {@link CollapsedException}; the frames still in it are handed to the agent's drop handler by the agent
 * itself ({@link #drainCollapsed}), so no second thread ever unlinks. A sender counts itself in before it checks
 * for a collapse, so once the agent has seen the collapse and nothing counted in that it has not taken, no frame
 * can still arrive: {@code drainCollapsed} returns true only then, and the agent replaces the queue.
 */
final class OutboundQueue extends OutboundQueuePadEnd implements Participant
{
    private static final VarHandle TAIL;
    private static final VarHandle COUNTED;
    private static final VarHandle TAKEN;
    private static final CompletableFuture<Reclaimed> COLLAPSING =
        CompletableFuture.completedFuture(Reclaimed.COLLAPSING);

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            TAIL = lookup.findVarHandle(OutboundQueueSenderFields.class, "tail", OutboundFrame.class);
            COUNTED = lookup.findVarHandle(OutboundQueueSenderFields.class, "counted", long.class);
            TAKEN = lookup.findVarHandle(OutboundQueueAgentFields.class, "taken", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final Participation participation;
    private final CoarseClock clock;
    private final int capacity;
    /** Room above the capacity that only notices may take. */
    private final int reserve;
    /** Never handed out: it stands in the list when the last frame is taken, so no taken frame stays linked. */
    private final OutboundFrame stub = new OutboundFrame();

    /** The least room kept for notices, whatever the capacity. */
    static final int MIN_RESERVE = 1024;

    /**
     * @param account  the memory quota account the frames' bytes are claimed from.
     * @param clock    the quota's clock, for the frames' enqueue stamps.
     * @param capacity frames at most.
     */
    OutboundQueue(final Account account, final CoarseClock clock, final int capacity)
    {
        if (capacity < 1)
        {
            throw new IllegalArgumentException("queue capacity " + capacity + " must be at least 1");
        }
        this.capacity = capacity;
        this.reserve = Math.max(MIN_RESERVE, capacity / 8);
        this.clock = clock;
        this.head = stub;
        this.tail = stub;
        this.participation = account.register(this);
    }

    /**
     * Queues a frame. Any thread.
     *
     * @param frame a frame not in any queue.
     * @return false if the queue is full or the node's quota is past its hard cap (nothing was claimed).
     * @throws CollapsedException   if the queue has collapsed.
     * @throws MemoryQuotaException if the account was closed or the tracker shut down.
     */
    boolean send(final OutboundFrame frame)
    {
        return send(frame, false);
    }

    /**
     * Queues a frame, a notice ({@code Undelivered}) possibly into the room kept for notices: {@link #reserve} frames
     * above the capacity that other frames cannot take, so that a queue kept full by a flood still carries the
     * reports of what could not be delivered. Any thread.
     *
     * @param frame  a frame not in any queue.
     * @param notice whether it may use the reserved room.
     * @return false if the queue (with its reserve, for a notice) is full or the node's quota is past its hard cap.
     * @throws CollapsedException   if the queue has collapsed.
     * @throws MemoryQuotaException if the account was closed or the tracker shut down.
     */
    boolean send(final OutboundFrame frame, final boolean notice)
    {
        // counted before the collapse check: see the class comment
        final long count = (long)COUNTED.getAndAdd(this, 1L) + 1;
        final int limit = notice ? capacity + reserve : capacity;
        if (count - takenSeen > limit)
        {
            final long takenNow = taken;
            takenSeen = takenNow;
            if (count - takenNow > limit)
            {
                countOut();
                return false;
            }
        }
        final CollapseReason reason = collapsed;
        if (reason != null)
        {
            countOut();
            throw new CollapsedException(reason);
        }
        try
        {
            participation.claim(frame.memoryCost());
        }
        catch (final MemoryQuotaException.QuotaExhausted ex)
        {
            countOut();
            return false; // back-pressure: the quota is past its hard cap until reclamation frees the oldest data
        }
        catch (final MemoryQuotaException ex)
        {
            countOut();
            final CollapseReason now = collapsed;
            throw now != null ? new CollapsedException(now) : ex;
        }
        frame.enqueuedAt(clock.nowNs());
        link(frame);
        return true;
    }

    /** A sender that counted itself in and then did not link its frame. */
    private void countOut()
    {
        COUNTED.getAndAdd(this, -1L);
    }

    /**
     * Takes the oldest frame. The interconnect agent only.
     *
     * @return the frame, or null if none is linked yet.
     * @throws CollapsedException if the queue has collapsed: call {@link #drainCollapsed} instead.
     */
    OutboundFrame receive()
    {
        final CollapseReason reason = collapsed;
        if (reason != null)
        {
            throw new CollapsedException(reason);
        }
        final OutboundFrame frame = unlink();
        if (frame != null)
        {
            unreleasedBytes += frame.memoryCost();
        }
        return frame;
    }

    /**
     * Gives the bytes of the frames taken since the last call back to the memory quota, in one release. The
     * interconnect agent only, at the end of each drain.
     */
    void releaseTaken()
    {
        final long bytes = unreleasedBytes;
        if (bytes != 0)
        {
            unreleasedBytes = 0;
            participation.release(bytes);
        }
    }

    /**
     * Hands every frame of a collapsed queue to {@code dropped}. The interconnect agent only.
     *
     * @param dropped what to do with each frame (report it, repay it, return it to its pool).
     * @return true once no frame is left or can still arrive: the queue may then be replaced.
     */
    boolean drainCollapsed(final Consumer<OutboundFrame> dropped)
    {
        OutboundFrame frame;
        while ((frame = unlink()) != null)
        {
            dropped.accept(frame);
        }
        return collapsed != null && counted - taken == 0;
    }

    private OutboundFrame unlink()
    {
        OutboundFrame first = head;
        OutboundFrame next = first.next();
        if (first == stub)
        {
            if (next == null)
            {
                return null;
            }
            head = next;
            first = next;
            next = next.next();
        }
        if (next == null)
        {
            if (first != (OutboundFrame)TAIL.getAcquire(this))
            {
                return null; // a sender exchanged the tail but has not linked yet: it shows on a later call
            }
            // first is the last frame: put the stub behind it, so first can be handed out unlinked
            link(stub);
            next = first.next();
            if (next == null)
            {
                return null; // a sender got in between; its link shows on a later call
            }
        }
        head = next;
        first.linkNext(null);
        // single writer: a release store senders may read, with no fence and no read-modify-write
        TAKEN.setRelease(this, (long)TAKEN.get(this) + 1);
        return first;
    }

    private void link(final OutboundFrame frame)
    {
        frame.linkNext(null);
        final OutboundFrame previous = (OutboundFrame)TAIL.getAndSet(this, frame);
        previous.linkNext(frame);
    }

    /**
     * Frames queued, including those of senders still linking them.
     *
     * @return the count.
     */
    int size()
    {
        final long takenNow = taken;
        return (int)Math.max(0, counted - takenNow);
    }

    /**
     * Whether the queue has collapsed.
     *
     * @return true if collapsed.
     */
    boolean isCollapsed()
    {
        return collapsed != null;
    }

    @Override
    public long oldestDataTimeNs()
    {
        // read from the reclaimer's thread: the frame may be taken (and reused) as we read, so the age is a
        // heuristic, as the quota's is anyway
        final OutboundFrame first = head;
        final OutboundFrame oldest = first == stub ? first.next() : first;
        return oldest == null || collapsed != null ? NO_DATA : oldest.enqueuedNs();
    }

    @Override
    public CompletionStage<Reclaimed> reclaim(final long discardOlderThanNs, final long bytesWanted)
    {
        collapse(CollapseReason.MEMORY_RECLAIMED);
        return COLLAPSING;
    }

    /**
     * Closes the queue for good (its peer was removed): as a collapse with {@link CollapseReason#RECEIVER_DROPPED},
     * later sends are refused and the agent drains what is left with {@link #drainCollapsed}. Any thread.
     */
    void close()
    {
        collapse(CollapseReason.RECEIVER_DROPPED);
    }

    private void collapse(final CollapseReason reason)
    {
        synchronized (this)
        {
            if (collapsed != null)
            {
                return;
            }
            collapsed = reason;
        }
        participation.close(); // the tracker forgets all it claimed, at once; the agent drops the frames
    }
}
