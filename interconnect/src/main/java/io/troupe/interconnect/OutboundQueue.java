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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The frames waiting for one peer: a bounded, memory-quota-tracked queue that allocates nothing per frame. It is
 * an intrusive many-to-one linked list (each {@link OutboundFrame} carries its own link and enqueue stamp):
 * senders on any thread link frames with one exchange on the tail; the interconnect agent alone unlinks them.
 *
 * <p>Collapse: when the memory quota reclaims the queue (it held the oldest data while the node was over its
 * quota), its claimed bytes are forgotten at once and every later send is refused with a
 * {@link CollapsedException}; the frames still in it are handed to the agent's drop handler by the agent
 * itself ({@link #drainCollapsed}), so no second thread ever unlinks. A sender counts itself in {@link #size}
 * before it checks for a collapse, so once the agent has seen the collapse and a size of 0, no frame can still
 * arrive: {@code drainCollapsed} returns true only then, and the agent replaces the queue.
 */
final class OutboundQueue implements Participant
{
    private static final VarHandle TAIL;
    private static final CompletableFuture<Reclaimed> COLLAPSING = CompletableFuture.completedFuture(Reclaimed.COLLAPSING);

    static
    {
        try
        {
            TAIL = MethodHandles.lookup().findVarHandle(OutboundQueue.class, "tail", OutboundFrame.class);
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
    /** Frames sent and not yet taken, counting senders still linking theirs. */
    private final AtomicInteger size = new AtomicInteger();
    /** Never handed out: it stands in the list when the last frame is taken, so no taken frame stays linked. */
    private final OutboundFrame stub = new OutboundFrame();
    /** The consumer's position: the next frame to take, or the stub. */
    private OutboundFrame head = stub;
    @SuppressWarnings("unused") // accessed through TAIL
    private volatile OutboundFrame tail = stub;
    private volatile CollapseReason collapsed;

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
        this.participation = account.register(this);
    }

    /**
     * Queues a frame. Any thread.
     *
     * @param frame a frame not in any queue.
     * @return false if the queue is full or the node's quota is at max (nothing was claimed).
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
     * @return false if the queue (with its reserve, for a notice) is full or the node's quota is at max.
     * @throws CollapsedException   if the queue has collapsed.
     * @throws MemoryQuotaException if the account was closed or the tracker shut down.
     */
    boolean send(final OutboundFrame frame, final boolean notice)
    {
        // counted before the collapse check: see the class comment
        if (size.incrementAndGet() > (notice ? capacity + reserve : capacity))
        {
            size.decrementAndGet();
            return false;
        }
        final CollapseReason reason = collapsed;
        if (reason != null)
        {
            size.decrementAndGet();
            throw new CollapsedException(reason);
        }
        try
        {
            participation.claim(frame.memoryCost());
        }
        catch (final MemoryQuotaException.QuotaExhausted ex)
        {
            size.decrementAndGet();
            return false; // back-pressure: the quota is at max until reclamation frees the oldest data
        }
        catch (final MemoryQuotaException ex)
        {
            size.decrementAndGet();
            final CollapseReason now = collapsed;
            throw now != null ? new CollapsedException(now) : ex;
        }
        frame.enqueuedAt(clock.nowNs());
        link(frame);
        return true;
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
            participation.release(frame.memoryCost());
        }
        return frame;
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
        return collapsed != null && size.get() == 0;
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
        size.decrementAndGet();
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
        return Math.max(0, size.get());
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
