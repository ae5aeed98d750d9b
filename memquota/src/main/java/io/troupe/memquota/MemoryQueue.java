package io.troupe.memquota;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A memory-tracked MPSC queue that is a {@link Participant}: every element is claimed against the queue's
 * account while queued and stamped with its enqueue time, which the tracker uses to find the oldest data.
 * When the tracker reclaims it, the queue collapses: its contents are dropped, {@link #send} and
 * {@link #receive} fail with {@link CollapsedException}, and its collapse callbacks run exactly once. Closing
 * the receiver collapses it too ({@link CollapseReason#RECEIVER_DROPPED}).
 *
 * <p>Thread safety: any thread may send; one thread receives at a time. The reclaimer may collapse the queue
 * concurrently with both.
 *
 * @param <T> the element type.
 */
public final class MemoryQueue<T extends HasMemoryCost> implements Participant, AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(MemoryQueue.class);
    private static final CompletableFuture<Reclaimed> COLLAPSING =
        CompletableFuture.completedFuture(Reclaimed.COLLAPSING);

    /**
     * Elements that are {@link QueuedElement}s as they are, others wrapped in an {@link Entry}. Swapped for an empty
     * queue on collapse, so dropping the contents costs O(1) on the collapsing thread.
     */
    private volatile ConcurrentLinkedQueue<Object> entries = new ConcurrentLinkedQueue<>();
    private final CoarseClock clock;
    private final int capacity;
    private final AtomicInteger size = new AtomicInteger();
    private final Participation participation;
    private final List<Consumer<CollapseReason>> callbacks = new ArrayList<>();
    private final Consumer<? super T> onDropped;
    private volatile CollapseReason collapsed;

    private MemoryQueue(
        final Account account, final CoarseClock clock, final int capacity, final Consumer<? super T> onDropped)
    {
        this.clock = clock;
        this.capacity = capacity;
        this.onDropped = onDropped;
        this.participation = account.register(this);
    }

    /**
     * A queue without a length bound (memory is still bounded by the quota).
     *
     * @param account the account its contents are claimed against.
     * @param <T>     the element type.
     * @return the queue.
     */
    public static <T extends HasMemoryCost> MemoryQueue<T> unbounded(final Account account)
    {
        return new MemoryQueue<>(account, account.tracker().clock(), Integer.MAX_VALUE, null);
    }

    /**
     * A queue of at most {@code capacity} elements.
     *
     * @param account  the account its contents are claimed against.
     * @param capacity the most elements queued at once, at least 1.
     * @param <T>      the element type.
     * @return the queue.
     */
    public static <T extends HasMemoryCost> MemoryQueue<T> bounded(final Account account, final int capacity)
    {
        if (capacity < 1)
        {
            throw new IllegalArgumentException("queue capacity " + capacity + " must be at least 1");
        }
        return new MemoryQueue<>(account, account.tracker().clock(), capacity, null);
    }

    /**
     * A queue of at most {@code capacity} elements whose owner learns of every element a collapse dropped,
     * e.g. to report tracked events as undelivered. The consumer runs once per dropped element: after the
     * reclamation round, on the reclaimer's thread, when the quota reclaimed the queue (so the round reaches
     * low water first); on the closing thread when the receiver closed it. It must be cheap and must not block.
     *
     * @param account   the account its contents are claimed against.
     * @param capacity  the most elements queued at once, at least 1.
     * @param onDropped told each element the collapse dropped.
     * @param <T>       the element type.
     * @return the queue.
     */
    public static <T extends HasMemoryCost> MemoryQueue<T> bounded(
        final Account account, final int capacity, final Consumer<? super T> onDropped)
    {
        if (capacity < 1)
        {
            throw new IllegalArgumentException("queue capacity " + capacity + " must be at least 1");
        }
        if (onDropped == null)
        {
            throw new NullPointerException("onDropped");
        }
        return new MemoryQueue<>(account, account.tracker().clock(), capacity, onDropped);
    }

    /**
     * Enqueues an element.
     *
     * @param element the element.
     * @return false if the queue is bounded and full, or the node's quota is past its hard cap (nothing was claimed);
     *     true if queued.
     * @throws CollapsedException   if the queue has collapsed.
     * @throws MemoryQuotaException if the account was closed or the tracker shut down.
     */
    public boolean send(final T element)
    {
        final CollapseReason reason = collapsed;
        if (reason != null)
        {
            throw new CollapsedException(reason);
        }
        if (size.incrementAndGet() > capacity)
        {
            size.decrementAndGet();
            return false;
        }
        final long cost = element.memoryCost();
        try
        {
            participation.claim(cost);
        }
        catch (final MemoryQuotaException.QuotaExhausted ex)
        {
            size.decrementAndGet();
            return false; // back-pressure: the quota is past its hard cap until reclamation frees the oldest data
        }
        catch (final MemoryQuotaException ex)
        {
            size.decrementAndGet();
            final CollapseReason now = collapsed;
            throw now != null ? new CollapsedException(now) : ex;
        }
        final ConcurrentLinkedQueue<Object> queue = entries;
        if (element instanceof QueuedElement)
        {
            ((QueuedElement)element).enqueuedAt(clock.nowNs());
            queue.offer(element);
        }
        else
        {
            queue.offer(new Entry<>(clock.nowNs(), element, cost));
        }
        final CollapseReason after = collapsed;
        if (after != null)
        {
            queue.clear(); // collapsed while we sent: the element is dropped with the rest
            throw new CollapsedException(after);
        }
        return true;
    }

    /**
     * Takes the oldest element.
     *
     * @return the element, or null if the queue is empty.
     * @throws CollapsedException if the queue has collapsed.
     */
    public T receive()
    {
        final CollapseReason reason = collapsed;
        if (reason != null)
        {
            throw new CollapsedException(reason);
        }
        final Object head = entries.poll();
        if (head == null)
        {
            return null;
        }
        size.decrementAndGet();
        if (head instanceof Entry)
        {
            @SuppressWarnings("unchecked") // only T is wrapped
            final Entry<T> entry = (Entry<T>)head;
            participation.release(entry.cost);
            return entry.element;
        }
        @SuppressWarnings("unchecked") // only T is queued
        final T element = (T)head;
        participation.release(element.memoryCost()); // unchanged while queued: the QueuedElement contract
        return element;
    }

    /**
     * Whether the queue collapsed: lets a sender find out without sending.
     *
     * @return true once collapsed.
     */
    public boolean isCollapsed()
    {
        return collapsed != null;
    }

    /**
     * Why the queue collapsed.
     *
     * @return the reason, or null while it has not.
     */
    public CollapseReason collapseReason()
    {
        return collapsed;
    }

    /**
     * Runs a callback when the queue collapses, exactly once; at once if it already has. Callbacks run on the
     * collapsing thread (the reclaimer, or the receiver's closer) and must not block.
     *
     * @param callback told the reason.
     */
    public void onCollapse(final Consumer<CollapseReason> callback)
    {
        final CollapseReason reason;
        synchronized (callbacks)
        {
            reason = collapsed;
            if (reason == null)
            {
                callbacks.add(callback);
                return;
            }
        }
        callback.accept(reason);
    }

    /**
     * Elements queued now.
     *
     * @return the count.
     */
    public int size()
    {
        return Math.max(0, size.get());
    }

    /**
     * Bytes this queue's account counts for it (including its participation's local cache).
     *
     * @return the bytes.
     */
    public long usedBytes()
    {
        return participation.usedBytes();
    }

    /**
     * Closes the receiving side: the queue collapses with {@link CollapseReason#RECEIVER_DROPPED} and leaves
     * its account.
     */
    @Override
    public void close()
    {
        collapse(CollapseReason.RECEIVER_DROPPED);
    }

    @Override
    public long oldestDataTimeNs()
    {
        final Object head = entries.peek();
        if (head == null || collapsed != null)
        {
            return NO_DATA;
        }
        // a racing receive may hand the element on (and a pool reuse it) as we read: the age is a heuristic
        return head instanceof Entry ? ((Entry<?>)head).enqueuedNs : ((QueuedElement)head).enqueuedNs();
    }

    @Override
    public CompletionStage<Reclaimed> reclaim(final long discardOlderThanNs, final long bytesWanted)
    {
        collapse(CollapseReason.MEMORY_RECLAIMED);
        return COLLAPSING;
    }

    private void collapse(final CollapseReason reason)
    {
        final List<Consumer<CollapseReason>> toRun;
        synchronized (callbacks)
        {
            if (collapsed != null)
            {
                return;
            }
            collapsed = reason;
            toRun = new ArrayList<>(callbacks);
            callbacks.clear();
        }
        final ConcurrentLinkedQueue<Object> dropped = entries;
        entries = new ConcurrentLinkedQueue<>(); // the contents leave the queue at once, however many there are
        size.set(0);
        participation.close(); // the tracker forgets all it claimed, at once
        // Unlinking the dropped entries costs a visit per entry, and it matters to the GC: a dropped node
        // already promoted to the old generation would keep every younger node after it alive through young
        // collections until marked dead. During reclamation the reclaimer does it after its round, so the
        // round reaches low water sooner; a closing receiver does it itself.
        final Runnable cleanup = onDropped == null ? dropped::clear : () -> handOver(dropped);
        if (reason == CollapseReason.MEMORY_RECLAIMED)
        {
            participation.tracker().deferCleanup(cleanup);
        }
        else
        {
            cleanup.run();
        }
        for (final Consumer<CollapseReason> callback : toRun)
        {
            try
            {
                callback.accept(reason);
            }
            catch (final RuntimeException ex)
            {
                // one failing callback must not keep the others from learning of the collapse
                LOG.warn("memory queue collapse callback failed", ex);
            }
        }
    }

    /** Gives each dropped element to the owner's consumer; one failing call does not stop the rest. */
    @SuppressWarnings("unchecked") // only T is queued, as it is or wrapped
    private void handOver(final ConcurrentLinkedQueue<Object> dropped)
    {
        Object head;
        while ((head = dropped.poll()) != null)
        {
            try
            {
                onDropped.accept(head instanceof Entry ? ((Entry<T>)head).element : (T)head);
            }
            catch (final RuntimeException ex)
            {
                LOG.warn("memory queue: the consumer of dropped elements failed", ex);
            }
        }
    }

    private static final class Entry<T>
    {
        final long enqueuedNs;
        final T element;
        final long cost;

        Entry(final long enqueuedNs, final T element, final long cost)
        {
            this.enqueuedNs = enqueuedNs;
            this.element = element;
            this.cost = cost;
        }
    }
}
