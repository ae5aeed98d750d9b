package io.troupe.actor.mailbox;

import io.troupe.actor.ActorId;
import io.troupe.actor.Behavior;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * A mailbox: a lock-free MPSC queue of envelopes, the actors that live on it, and the activation state that
 * decides which thread runs it.
 *
 * <p>Activation: {@code IDLE -> SCHEDULED} by whichever sender first finds it idle after enqueueing (that
 * sender hands it to the pool); {@code SCHEDULED -> RUNNING} by the worker that takes it; then back to
 * {@code IDLE} when drained, or {@code SCHEDULED} when the worker's quantum ran out. A worker that goes idle
 * re-checks the queue afterwards, and a sender checks the state after enqueueing: both are sequentially
 * consistent accesses, so at least one of them sees the other and no wake-up is lost.
 *
 * <p>Actors: a primary actor is held in fields (an idle actor costs one mailbox and its behaviour object);
 * actors registered on the mailbox by its own actors are kept in a small array. Actor slots are changed only
 * by the thread running the mailbox, except {@link #occupy}, which publishes a new primary actor on a vacant
 * mailbox with a release store of its local id.
 */
public abstract class Mailbox extends Node
{
    /** Nobody runs the mailbox and it is not queued for activation. */
    public static final int IDLE = 0;
    /** Queued for activation in its pool. */
    public static final int SCHEDULED = 1;
    /** A worker is running it. */
    public static final int RUNNING = 2;
    /** {@link #findSlot} result for the primary actor. */
    public static final int PRIMARY = -1;
    /** {@link #findSlot} result when no actor with that local id lives here. */
    public static final int NO_SLOT = -2;

    private static final VarHandle STATE;
    private static final VarHandle LOCAL_ID;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(Mailbox.class, "state", int.class);
            LOCAL_ID = lookup.findVarHandle(Mailbox.class, "localId", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final int hint;
    private final int poolId;
    @SuppressWarnings("unused") // accessed through STATE
    private volatile int state;
    @SuppressWarnings("unused") // accessed through LOCAL_ID
    private long localId;
    private Behavior behavior;
    private ActorId self;
    private ActorSlot[] extras;
    /**
     * The event that activated the mailbox while its queue was empty: the sender that moved it from IDLE to
     * SCHEDULED put it here instead of in the queue (no queue operations on the common one-event activation).
     * Written only by the owner of the activation, before the mailbox is handed to a worker; read and cleared
     * by that worker. {@link #poll()} returns it before anything queued.
     */
    Node first;
    /** Link in the table's free list of vacant mailboxes; owned by {@link MailboxTable}. */
    int nextFree;

    Mailbox(final int hint, final int poolId)
    {
        this.hint = hint;
        this.poolId = poolId;
    }

    /**
     * Index of this mailbox in the node's table.
     *
     * @return the hint.
     */
    public final int hint()
    {
        return hint;
    }

    /**
     * Pool the mailbox is pinned to.
     *
     * @return the pool id.
     */
    public final int poolId()
    {
        return poolId;
    }

    /**
     * The queue this mailbox is built on.
     *
     * @return the type.
     */
    public abstract MailboxType type();

    // ---------------------------------------------------------------- queue

    /**
     * Enqueues a node. Safe from any thread; never blocks.
     *
     * @param node the node; must not be in any queue.
     */
    public abstract void push(Node node);

    /**
     * Called by the sender whose {@link #tryMarkScheduled()} succeeded, before it hands the mailbox to a
     * worker: the node goes to the first slot if the queue is empty, else into the queue. Either way it is
     * handled after everything the same sender sent earlier.
     *
     * @param node the node; must not be in any queue.
     */
    public final void pushActivating(final Node node)
    {
        if (first == null && !queuePending())
        {
            first = node;
        }
        else
        {
            push(node);
        }
    }

    /**
     * Dequeues the oldest node: the first slot, then the queue. Only the thread running the mailbox.
     *
     * @return the node, or null when empty or when the next sender has not finished linking its node.
     */
    public final Node poll()
    {
        final Node node = first;
        if (node != null)
        {
            first = null;
            return node;
        }
        return pollQueue();
    }

    /**
     * Dequeues the oldest queued node. Only the thread running the mailbox.
     *
     * @return the node, or null when empty or when the next sender has not finished linking its node.
     */
    protected abstract Node pollQueue();

    /**
     * Whether a node was enqueued that the reader has not taken, including one still being linked. Reads the
     * producers' position with a volatile load: pairs with {@link #markIdle()} for the no-lost-wake-up rule.
     * Only the thread running the mailbox (or the owner of a pending activation) may call this.
     *
     * @return true if something is pending.
     */
    public final boolean hasPending()
    {
        return first != null || queuePending();
    }

    /**
     * Whether the queue holds a node the reader has not taken, including one still being linked.
     *
     * @return true if something is queued.
     */
    protected abstract boolean queuePending();

    // ---------------------------------------------------------------- activation

    /**
     * Current activation state.
     *
     * @return {@link #IDLE}, {@link #SCHEDULED} or {@link #RUNNING}.
     */
    public final int state()
    {
        return state;
    }

    /**
     * Called after enqueueing: moves an idle mailbox to SCHEDULED.
     *
     * @return true if the caller won the transition and must hand the mailbox to its pool.
     */
    public final boolean tryMarkScheduled()
    {
        return state == IDLE && STATE.compareAndSet(this, IDLE, SCHEDULED);
    }

    /**
     * Called by the worker that took the mailbox from its pool.
     */
    public final void markRunning()
    {
        STATE.setRelease(this, RUNNING);
    }

    /**
     * Called by the worker when its quantum ran out and it queues the mailbox again.
     */
    public final void markRescheduled()
    {
        STATE.setRelease(this, SCHEDULED);
    }

    /**
     * Called by the worker that drained the mailbox; must be followed by a {@link #hasPending()} re-check.
     */
    public final void markIdle()
    {
        state = IDLE;
    }

    // ---------------------------------------------------------------- actors

    /**
     * Installs the primary actor on a vacant mailbox and publishes it.
     *
     * @param newLocalId local id of the new actor, never 0.
     * @param initial    its first behaviour.
     */
    public final void occupy(final long newLocalId, final Behavior initial)
    {
        this.behavior = initial;
        this.self = null;
        LOCAL_ID.setRelease(this, newLocalId);
    }

    /**
     * Adds an actor that shares this mailbox (and its single-threaded guarantee). Only the running thread.
     *
     * @param newLocalId local id of the new actor.
     * @param initial    its first behaviour.
     */
    public final void addActor(final long newLocalId, final Behavior initial)
    {
        final ActorSlot slot = new ActorSlot(newLocalId, initial);
        if (extras == null)
        {
            extras = new ActorSlot[] {slot};
        }
        else
        {
            final ActorSlot[] grown = Arrays.copyOf(extras, extras.length + 1);
            grown[extras.length] = slot;
            extras = grown;
        }
    }

    /**
     * Finds the actor with the given local id.
     *
     * @param id the recipient's local id.
     * @return {@link #PRIMARY}, an index of a shared actor, or {@link #NO_SLOT}.
     */
    public final int findSlot(final long id)
    {
        if (id != 0 && id == (long)LOCAL_ID.getAcquire(this))
        {
            return PRIMARY;
        }
        final ActorSlot[] slots = extras;
        if (slots != null)
        {
            for (int i = 0; i < slots.length; i++)
            {
                if (slots[i].localId == id)
                {
                    return i;
                }
            }
        }
        return NO_SLOT;
    }

    /**
     * Behaviour of an actor on this mailbox.
     *
     * @param slot a {@link #findSlot} result.
     * @return the behaviour.
     */
    public final Behavior behavior(final int slot)
    {
        return slot == PRIMARY ? behavior : extras[slot].behavior;
    }

    /**
     * Replaces the behaviour of an actor on this mailbox ({@code become}).
     *
     * @param slot a {@link #findSlot} result.
     * @param next the new behaviour.
     */
    public final void become(final int slot, final Behavior next)
    {
        if (slot == PRIMARY)
        {
            behavior = next;
        }
        else
        {
            extras[slot].behavior = next;
        }
    }

    /**
     * Local id of an actor on this mailbox.
     *
     * @param slot a {@link #findSlot} result.
     * @return the local id.
     */
    public final long localId(final int slot)
    {
        return slot == PRIMARY ? (long)LOCAL_ID.getAcquire(this) : extras[slot].localId;
    }

    /**
     * The id of an actor on this mailbox, created on first use and cached.
     *
     * @param slot   a {@link #findSlot} result.
     * @param nodeId this node's id.
     * @return the id.
     */
    public final ActorId self(final int slot, final int nodeId)
    {
        if (slot == PRIMARY)
        {
            ActorId id = self;
            if (id == null)
            {
                id = ActorId.of(nodeId, localId(PRIMARY), hint, poolId);
                self = id;
            }
            return id;
        }
        final ActorSlot s = extras[slot];
        ActorId id = s.self;
        if (id == null)
        {
            id = ActorId.of(nodeId, s.localId, hint, poolId);
            s.self = id;
        }
        return id;
    }

    /**
     * Removes an actor (it passed away). Only the running thread.
     *
     * @param slot a {@link #findSlot} result.
     * @return true if no actor lives on the mailbox any more.
     */
    public final boolean remove(final int slot)
    {
        if (slot == PRIMARY)
        {
            behavior = null;
            self = null;
            LOCAL_ID.setRelease(this, 0L);
        }
        else if (extras.length == 1)
        {
            extras = null;
        }
        else
        {
            final ActorSlot[] shrunk = new ActorSlot[extras.length - 1];
            System.arraycopy(extras, 0, shrunk, 0, slot);
            System.arraycopy(extras, slot + 1, shrunk, slot, extras.length - slot - 1);
            extras = shrunk;
        }
        return isVacant();
    }

    /**
     * Whether no actor lives on the mailbox.
     *
     * @return true if vacant.
     */
    public final boolean isVacant()
    {
        return (long)LOCAL_ID.getAcquire(this) == 0 && extras == null;
    }

    /**
     * Number of actors living on the mailbox.
     *
     * @return the count.
     */
    public final int actorCount()
    {
        final ActorSlot[] slots = extras;
        return ((long)LOCAL_ID.getAcquire(this) != 0 ? 1 : 0) + (slots == null ? 0 : slots.length);
    }

    static void link(final Node node, final Node next)
    {
        Node.NEXT.setRelease(node, next);
    }

    static Node nextOf(final Node node)
    {
        return (Node)Node.NEXT.getAcquire(node);
    }

    static void clearNext(final Node node)
    {
        Node.NEXT.set(node, (Node)null);
    }

    /** An actor sharing a mailbox with its primary actor. */
    static final class ActorSlot
    {
        final long localId;
        Behavior behavior;
        ActorId self;

        ActorSlot(final long localId, final Behavior behavior)
        {
            this.localId = localId;
            this.behavior = behavior;
        }
    }
}
