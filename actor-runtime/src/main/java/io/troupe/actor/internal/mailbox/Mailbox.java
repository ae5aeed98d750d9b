package io.troupe.actor.internal.mailbox;

import io.troupe.actor.Envelope;
import io.troupe.actor.MailboxType;
import io.troupe.actor.QueueLink;
import io.troupe.actor.internal.queue.QueueNode;

import io.troupe.actor.ActorId;
import io.troupe.actor.Behavior;
import io.troupe.memquota.Participant;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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
public abstract class Mailbox extends QueueLink
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
    /** The actor that registered the primary actor (the only one, beside its system, that may stop it), or null. */
    private ActorId parent;
    /** Rarely used parts: actors sharing the mailbox, memory tracking. Null for most mailboxes. */
    private Extension ext;
    /**
     * The event that activated the mailbox while its queue was empty: the sender that moved it from IDLE to
     * SCHEDULED put it here instead of in the queue (no queue operations on the common one-event activation).
     * Written only by the owner of the activation, before the mailbox is handed to a worker; read and cleared
     * by that worker. {@link #poll()} returns it before anything queued.
     */
    QueueLink first;
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
    public abstract void push(QueueLink node);

    /**
     * Called by the sender whose {@link #tryMarkScheduled()} succeeded, before it hands the mailbox to a
     * worker: the node goes to the first slot if the queue is empty, else into the queue. Either way it is
     * handled after everything the same sender sent earlier.
     *
     * @param node the node; must not be in any queue.
     */
    public final void pushActivating(final QueueLink node)
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
    public final QueueLink poll()
    {
        final QueueLink node = first;
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
    protected abstract QueueLink pollQueue();

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
     * @param registrar  the actor that registered it, or null (its system did).
     */
    public final void occupy(final long newLocalId, final Behavior initial, final ActorId registrar)
    {
        this.behavior = initial;
        this.self = null;
        this.parent = registrar;
        LOCAL_ID.setRelease(this, newLocalId); // publishes the fields above to whoever reads the id with acquire
    }

    /**
     * Adds an actor that shares this mailbox (and its single-threaded guarantee). Only the running thread.
     *
     * @param newLocalId local id of the new actor.
     * @param initial    its first behaviour.
     * @param registrar  the actor that registered it.
     */
    public final void addActor(final long newLocalId, final Behavior initial, final ActorId registrar)
    {
        final ActorSlot slot = new ActorSlot(newLocalId, initial, registrar);
        final Extension e = extension();
        if (e.actors == null)
        {
            e.actors = new ActorSlot[] {slot};
        }
        else
        {
            final ActorSlot[] grown = Arrays.copyOf(e.actors, e.actors.length + 1);
            grown[e.actors.length] = slot;
            e.actors = grown;
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
        final ActorSlot[] slots = actors();
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
        return slot == PRIMARY ? behavior : ext.actors[slot].behavior;
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
            ext.actors[slot].behavior = next;
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
        return slot == PRIMARY ? (long)LOCAL_ID.getAcquire(this) : ext.actors[slot].localId;
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
        final ActorSlot s = ext.actors[slot];
        ActorId id = s.self;
        if (id == null)
        {
            id = ActorId.of(nodeId, s.localId, hint, poolId);
            s.self = id;
        }
        return id;
    }

    /**
     * The actor that registered an actor on this mailbox: besides its system, the only one that may stop it. Only the
     * running thread (for the primary actor, also a thread that found it by {@link #findSlot}).
     *
     * @param slot a {@link #findSlot} result.
     * @return its registrar, or null if its system registered it.
     */
    public final ActorId parent(final int slot)
    {
        return slot == PRIMARY ? parent : ext.actors[slot].parent;
    }

    /**
     * The runtime's state of an actor that only some actors have (its keyed timers, what it watches), or null.
     * Only the running thread.
     *
     * @param slot a {@link #findSlot} result.
     * @return what {@link #attach} left for it, or null.
     */
    public final Object attachment(final int slot)
    {
        if (slot == PRIMARY)
        {
            final Extension e = ext;
            return e == null ? null : e.primaryAttachment;
        }
        return ext.actors[slot].attachment;
    }

    /**
     * Keeps the runtime's state of an actor with it (see {@link #attachment}); it goes when the actor does. Only the
     * running thread.
     *
     * @param slot       a {@link #findSlot} result.
     * @param attachment the state.
     */
    public final void attach(final int slot, final Object attachment)
    {
        if (slot == PRIMARY)
        {
            extension().primaryAttachment = attachment;
        }
        else
        {
            ext.actors[slot].attachment = attachment;
        }
    }

    /**
     * The ids of the actors living on the mailbox. Only the running thread.
     *
     * @param nodeId this node's id.
     * @return primary first, then shared actors.
     */
    public final List<ActorId> actorIds(final int nodeId)
    {
        final List<ActorId> ids = new ArrayList<>(2);
        if ((long)LOCAL_ID.getAcquire(this) != 0)
        {
            ids.add(self(PRIMARY, nodeId));
        }
        final ActorSlot[] slots = actors();
        if (slots != null)
        {
            for (int i = 0; i < slots.length; i++)
            {
                ids.add(self(i, nodeId));
            }
        }
        return ids;
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
            parent = null;
            if (ext != null)
            {
                ext.primaryAttachment = null;
            }
            LOCAL_ID.setRelease(this, 0L);
        }
        else if (ext.actors.length == 1)
        {
            ext.actors = null;
        }
        else
        {
            final ActorSlot[] old = ext.actors;
            final ActorSlot[] shrunk = new ActorSlot[old.length - 1];
            System.arraycopy(old, 0, shrunk, 0, slot);
            System.arraycopy(old, slot + 1, shrunk, slot, old.length - slot - 1);
            ext.actors = shrunk;
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
        return (long)LOCAL_ID.getAcquire(this) == 0 && actors() == null;
    }

    /**
     * Number of actors living on the mailbox.
     *
     * @return the count.
     */
    public final int actorCount()
    {
        final ActorSlot[] slots = actors();
        return ((long)LOCAL_ID.getAcquire(this) != 0 ? 1 : 0) + (slots == null ? 0 : slots.length);
    }

    // ---------------------------------------------------------------- memory tracking

    /**
     * The memory tracking of this mailbox.
     *
     * @return it, or null for an untracked mailbox.
     */
    public final MailboxMemory memory()
    {
        final Extension e = ext;
        return e == null ? null : e.memory;
    }

    /**
     * Attaches memory tracking; done by the registering thread before the mailbox is occupied.
     *
     * @param memory the tracking.
     */
    public final void attachMemory(final MailboxMemory memory)
    {
        extension().memory = memory;
    }

    /**
     * Detaches memory tracking when the mailbox is vacated: the caller closes its participation and account.
     *
     * @return the tracking that was attached, or null.
     */
    public final MailboxMemory detachMemory()
    {
        final Extension e = ext;
        if (e == null)
        {
            return null;
        }
        final MailboxMemory memory = e.memory;
        e.memory = null;
        return memory;
    }

    /**
     * Enqueue time of the oldest envelope waiting, read racily from any thread (a stale answer is older, never
     * newer, than the truth, which is the safe direction for picking reclamation victims).
     *
     * @return the time, or {@link io.troupe.memquota.Participant#NO_DATA}.
     */
    public final long peekOldestEnqueuedNs()
    {
        QueueLink node = first;
        if (node == null)
        {
            node = peekQueue();
        }
        return node instanceof Envelope ? ((Envelope)node).enqueuedNs() : Participant.NO_DATA;
    }

    /**
     * The oldest queued node, read racily; for ages only.
     *
     * @return the node, or null.
     */
    protected abstract QueueLink peekQueue();

    private ActorSlot[] actors()
    {
        final Extension e = ext;
        return e == null ? null : e.actors;
    }

    private Extension extension()
    {
        Extension e = ext;
        if (e == null)
        {
            e = new Extension();
            ext = e;
        }
        return e;
    }

    static void link(final QueueLink node, final QueueLink next)
    {
        QueueNode.NEXT.setRelease(node, next);
    }

    static QueueLink nextOf(final QueueLink node)
    {
        return (QueueLink)QueueNode.NEXT.getAcquire(node);
    }

    static void clearNext(final QueueLink node)
    {
        QueueNode.NEXT.set(node, (QueueLink)null);
    }

    /** The rarely used parts of a mailbox, allocated on first use. */
    static final class Extension
    {
        ActorSlot[] actors;
        MailboxMemory memory;
        Object primaryAttachment;
    }

    /** An actor sharing a mailbox with its primary actor. */
    static final class ActorSlot
    {
        final long localId;
        final ActorId parent;
        Behavior behavior;
        ActorId self;
        Object attachment;

        ActorSlot(final long localId, final Behavior behavior, final ActorId parent)
        {
            this.localId = localId;
            this.behavior = behavior;
            this.parent = parent;
        }
    }
}
