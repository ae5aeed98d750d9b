package io.troupe.actor.internal;

import io.troupe.actor.ActorId;
import io.troupe.actor.Behavior;
import io.troupe.actor.MailboxType;
import io.troupe.actor.SystemCounter;
import io.troupe.actor.internal.mailbox.Mailbox;
import io.troupe.actor.internal.mailbox.MailboxMemory;
import io.troupe.actor.internal.mailbox.MailboxTable;
import io.troupe.memquota.Account;
import io.troupe.memquota.MemoryQuotaTracker;

import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * Births and deaths of one node's actors: hands out local ids, puts a new actor on a mailbox of its pool, counts
 * registrations and passings away, and tells the pass-away listeners. Safe from any thread: ids come from an
 * atomic counter, the listeners are copied on write and read by workers without a lock.
 */
final class ActorRegistry
{
    @SuppressWarnings("unchecked")
    private static final IntFunction<Consumer<ActorId>[]> LISTENER_ARRAY = Consumer[]::new;

    private final int nodeId;
    private final int poolCount;
    private final MailboxTable table;
    private final Router router;
    private final RuntimeCounters counters;
    private final MemoryQuotaTracker memoryQuota;
    private final AtomicLong nextLocalId;
    private final Object listenersLock = new Object();
    private volatile Consumer<ActorId>[] passAwayListeners = LISTENER_ARRAY.apply(0);

    ActorRegistry(
        final int nodeId,
        final int poolCount,
        final MailboxTable table,
        final Router router,
        final RuntimeCounters counters,
        final MemoryQuotaTracker memoryQuota,
        final long incarnation)
    {
        this.nextLocalId = new AtomicLong(ActorId.firstLocalId(incarnation));
        this.nodeId = nodeId;
        this.poolCount = poolCount;
        this.table = table;
        this.router = router;
        this.counters = counters;
        this.memoryQuota = memoryQuota;
    }

    /**
     * Registers an actor on a new mailbox of a pool.
     *
     * @param behavior     its first behaviour.
     * @param poolId       the pool to pin it to.
     * @param type         the mailbox type.
     * @param ownedAccount an account handle the mailbox takes over (closed here if registering fails), or null for
     *                     a mailbox without memory tracking.
     * @param replySlot    whether the actor is a reply slot (its local id carries {@link ReplySlots#BIT}).
     * @param parent       the actor registering it (the only one, beside the system, that may stop it), or null.
     * @return its id.
     * @throws IllegalArgumentException if there is no such pool.
     * @throws IllegalStateException    if the system has stopped or the mailbox table is full.
     */
    ActorId register(
        final Behavior behavior,
        final int poolId,
        final MailboxType type,
        final Account ownedAccount,
        final boolean replySlot,
        final ActorId parent)
    {
        Objects.requireNonNull(behavior, "behavior");
        Objects.requireNonNull(type, "type");
        if (poolId < 0 || poolId >= poolCount)
        {
            closeQuietly(ownedAccount);
            throw new IllegalArgumentException("pool id " + poolId + " out of range 0.." + (poolCount - 1));
        }
        if (router.phase() == Router.STOPPED)
        {
            closeQuietly(ownedAccount);
            throw new IllegalStateException("actor system of node " + nodeId + " has stopped");
        }
        final long localId = replySlot ? nextLocalId() | ReplySlots.BIT : nextLocalId();
        final Mailbox mailbox = table.allocate(poolId, type);
        if (ownedAccount != null)
        {
            mailbox.attachMemory(new MailboxMemory(mailbox, ownedAccount, memoryQuota.clock(),
                router::scheduleFromOutside));
        }
        mailbox.occupy(localId, behavior, parent);
        onRegistered();
        return ActorId.of(nodeId, localId, mailbox.hint(), poolId);
    }

    private static void closeQuietly(final Account account)
    {
        if (account != null)
        {
            account.close();
        }
    }

    /** A fresh local id, for an actor that joins an existing mailbox. */
    long nextLocalId()
    {
        return nextLocalId.getAndIncrement();
    }

    /** Counts an actor registered, here or on an existing mailbox. */
    void onRegistered()
    {
        counters.increment(SystemCounter.ACTORS_REGISTERED);
        counters.increment(SystemCounter.ACTORS_ALIVE);
    }

    /** Counts an actor gone and tells the listeners; a listener that throws is counted as a handler failure. */
    void onPassedAway(final ActorId actor)
    {
        counters.increment(SystemCounter.ACTORS_PASSED_AWAY); // first: whoever sees alive drop sees this
        counters.decrement(SystemCounter.ACTORS_ALIVE);
        for (final Consumer<ActorId> listener : passAwayListeners)
        {
            try
            {
                listener.accept(actor);
            }
            catch (final RuntimeException ex)
            {
                counters.increment(SystemCounter.HANDLER_FAILURES);
            }
        }
    }

    /**
     * Adds a listener told of every actor of this node that passes away, on the worker thread where it did.
     *
     * @param listener the listener.
     * @return closing it removes the listener.
     */
    AutoCloseable onPassAway(final Consumer<ActorId> listener)
    {
        Objects.requireNonNull(listener, "listener");
        synchronized (listenersLock)
        {
            final Consumer<ActorId>[] next = Arrays.copyOf(passAwayListeners, passAwayListeners.length + 1);
            next[next.length - 1] = listener;
            passAwayListeners = next;
        }
        return () ->
        {
            synchronized (listenersLock)
            {
                passAwayListeners = Arrays.stream(passAwayListeners).filter(each -> each != listener)
                    .toArray(LISTENER_ARRAY);
            }
        };
    }
}
