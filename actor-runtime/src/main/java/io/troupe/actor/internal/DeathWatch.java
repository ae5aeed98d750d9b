package io.troupe.actor.internal;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.SystemCounter;
import io.troupe.actor.NodeConnected;
import io.troupe.actor.Terminated;
import io.troupe.actor.TerminationReason;
import io.troupe.actor.Undelivered;
import io.troupe.actor.internal.executor.Worker;
import io.troupe.actor.internal.mailbox.Mailbox;
import io.troupe.actor.spi.WatchRequest;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Death watch on one node. A watch is a {@link WatchRequest} the watcher sends the watched actor, tracked; the runtime
 * takes it on the watched actor's thread and keeps the watcher beside the actor ({@link ActorWatches}), which sends
 * each watcher one {@link Terminated} as it passes away, behind everything it sent before. A request that finds the
 * actor gone comes back {@code Undelivered(ACTOR_UNKNOWN)} and becomes the watcher's {@code Terminated(NOT_ALIVE)}
 * (actor ids are never reused, so an actor of a restarted node is never mistaken for the one watched). The watcher's
 * side drops a Terminated for an actor it no longer watches: exactly one, and none after an unwatch.
 *
 * <p>For actors of other nodes this node also keeps the watches by node: a keeper actor (registered on the first
 * such watch) sends them again each time the session with the node comes up (whatever the watched side missed while
 * it was down: a request, or a Terminated that went nowhere), and {@link #nodeGone} ends them all at once with the
 * reason (the node shut down, was downed or left, or came back as a new incarnation). Nothing of this is on the send
 * path: a watch costs an entry on each side and a request, a death one event per watcher.
 */
final class DeathWatch
{
    /** How long a watch that the watched actor's mailbox shed (over its memory quota) waits before it is sent again. */
    private static final Duration RETRY_SHED = Duration.ofMillis(100);

    private final LocalActorSystem system;
    private final Router router;
    private final int nodeId;
    private final RuntimeCounters counters;
    private final ConcurrentHashMap<Integer, Set<Pair>> remote = new ConcurrentHashMap<>();
    private final Object keeperLock = new Object();
    private volatile ActorId keeper;

    /** A watch of an actor of another node. */
    private record Pair(ActorId target, ActorId watcher)
    {
    }

    /** Tells the keeper to follow the sessions with a node. */
    private record Follow(int nodeId)
    {
    }

    DeathWatch(final LocalActorSystem system, final Router router, final int nodeId, final RuntimeCounters counters)
    {
        this.counters = counters;
        this.system = system;
        this.router = router;
        this.nodeId = nodeId;
    }

    // ---------------------------------------------------------------- the watcher's thread

    /** {@code ctx.watch(target)}. */
    void watch(final Mailbox mailbox, final int slot, final ActorId self, final ActorId target, final Worker worker)
    {
        final ActorId watched = normalized(target);
        if (watched.equals(self) || !ActorExtras.watches(mailbox, slot).startWatching(watched))
        {
            return;
        }
        if (!router.isLocal(watched.nodeId()))
        {
            remote.computeIfAbsent(watched.nodeId(), n -> ConcurrentHashMap.newKeySet()).add(new Pair(watched, self));
            follow(watched.nodeId());
        }
        sendRequest(watched, self, true, worker);
    }

    /** {@code ctx.unwatch(target)}. */
    void unwatch(final Mailbox mailbox, final int slot, final ActorId self, final ActorId target, final Worker worker)
    {
        final ActorId watched = normalized(target);
        final ActorWatches watches = ActorExtras.existingWatches(mailbox, slot);
        if (watches == null || !watches.stopWatching(watched))
        {
            return;
        }
        forgetRemote(watched, self);
        sendRequest(watched, self, false, worker);
    }

    /**
     * A Terminated reached a watcher: the envelope for its behaviour, or null (settled) if it no longer watches the
     * actor (it unwatched, or this is a second notice of one death).
     */
    Envelope onTerminated(final Mailbox mailbox, final int slot, final Envelope envelope)
    {
        if (!(eventOf(envelope) instanceof Terminated terminated))
        {
            return envelope; // the type id with another event, or one that does not decode: the behaviour's
        }
        final ActorWatches watches = ActorExtras.existingWatches(mailbox, slot);
        if (watches == null || !watches.stopWatching(terminated.actor()))
        {
            envelope.settle();
            return null;
        }
        forgetRemote(terminated.actor(), mailbox.self(slot, nodeId));
        return envelope;
    }

    /**
     * An Undelivered reached an actor: if it is about one of its watch requests, what it means for the watch (a
     * Terminated for its behaviour, or nothing); any other notice goes to the behaviour as it is.
     */
    Envelope onUndelivered(final Mailbox mailbox, final int slot, final Envelope envelope)
    {
        if (!(eventOf(envelope) instanceof Undelivered notice) || notice.type() != WatchRequest.TYPE)
        {
            return envelope;
        }
        envelope.settle();
        final ActorId target = notice.recipient();
        final ActorWatches watches = ActorExtras.existingWatches(mailbox, slot);
        if (watches == null || !watches.isWatching(target))
        {
            return null;
        }
        final ActorId self = mailbox.self(slot, nodeId);
        final TerminationReason reason;
        switch (notice.reason())
        {
            case ACTOR_UNKNOWN -> reason = TerminationReason.NOT_ALIVE;
            case SHUTDOWN -> reason = TerminationReason.NODE_STOPPED;
            case SHED, COLLAPSED ->
            {
                // the watched actor's mailbox is over its memory quota: ask again a little later
                system.scheduleFrom(self, RETRY_SHED, null, target, new WatchRequest(self, true), WatchRequest.TYPE,
                    Envelope.FLAG_TRACK_DELIVERY, null);
                return null;
            }
            default ->
            {
                return null; // DISCONNECTED: asked again when the session is back, or ended when the node is gone
            }
        }
        watches.stopWatching(target);
        forgetRemote(target, self);
        return new Envelope(self, target, Terminated.TYPE, 0, 0L, new Terminated(target, reason), null);
    }

    // ---------------------------------------------------------------- the watched actor's thread

    /**
     * A watch request reached the actor it is for (settled here): null. Something else of the type id (or one that
     * does not decode) is the behaviour's.
     */
    Envelope onRequest(final Mailbox mailbox, final int slot, final Envelope envelope)
    {
        if (!(eventOf(envelope) instanceof WatchRequest request) || request.watcher() == null)
        {
            return envelope;
        }
        envelope.settle();
        final ActorId watcher = normalizedFrom(request.watcher(), envelope);
        if (request.watch())
        {
            if (ActorExtras.watches(mailbox, slot).addWatcher(watcher))
            {
                counters.increment(SystemCounter.WATCHERS_HELD);
            }
        }
        else
        {
            final ActorWatches watches = ActorExtras.existingWatches(mailbox, slot);
            if (watches != null && watches.removeWatcher(watcher))
            {
                counters.decrement(SystemCounter.WATCHERS_HELD);
            }
        }
        return null;
    }

    /** The actor passes away: each watcher is told, and what it watched is unwatched. */
    void onPassAway(final ActorWatches watches, final ActorId self, final Worker worker)
    {
        for (final ActorId watcher : watches.takeWatchers())
        {
            counters.decrement(SystemCounter.WATCHERS_HELD);
            router.route(new Envelope(watcher, self, Terminated.TYPE, 0, 0L,
                new Terminated(self, TerminationReason.PASSED_AWAY), null), worker);
        }
        for (final ActorId target : watches.takeWatching())
        {
            forgetRemote(target, self);
            sendRequest(target, self, false, worker);
        }
    }

    /**
     * The envelope's event, or null if its payload does not decode: the intercept never throws (the behaviour then
     * gets the envelope as before, and meets the failure in its own handler, where it is caught and counted).
     */
    private static Object eventOf(final Envelope envelope)
    {
        try
        {
            return envelope.event();
        }
        catch (final RuntimeException ex)
        {
            return null;
        }
    }

    // ---------------------------------------------------------------- any thread

    /**
     * A node is gone for good (shut down, downed or left, restarted as a new incarnation): every watch of its actors
     * ends with a Terminated of that reason.
     *
     * @param nodeId the node.
     * @param reason why.
     */
    void nodeGone(final int node, final TerminationReason reason)
    {
        Objects.requireNonNull(reason, "reason");
        final Set<Pair> pairs = remote.remove(node);
        if (pairs == null)
        {
            return;
        }
        for (final Pair pair : pairs)
        {
            router.route(new Envelope(pair.watcher(), pair.target(), Terminated.TYPE, 0, 0L,
                new Terminated(pair.target(), reason), null), null);
        }
    }

    /** Watches of other nodes' actors kept here (for tests and figures). */
    int remoteWatchCount()
    {
        int count = 0;
        for (final Set<Pair> pairs : remote.values())
        {
            count += pairs.size();
        }
        return count;
    }

    private void sendRequest(final ActorId target, final ActorId watcher, final boolean watch, final Worker worker)
    {
        router.route(new Envelope(target, watcher, WatchRequest.TYPE, watch ? Envelope.FLAG_TRACK_DELIVERY : 0, 0L,
            new WatchRequest(watcher, watch), null), worker);
    }

    private void forgetRemote(final ActorId target, final ActorId watcher)
    {
        if (!router.isLocal(target.nodeId()))
        {
            final Set<Pair> pairs = remote.get(target.nodeId());
            if (pairs != null)
            {
                pairs.remove(new Pair(target, watcher));
            }
        }
    }

    private ActorId normalized(final ActorId target)
    {
        Objects.requireNonNull(target, "target");
        if (target.isService())
        {
            throw new IllegalArgumentException("watch an actor, not a service id (a service outlives its actors): " +
                target);
        }
        return target.nodeId() == 0 ? target.onNode(nodeId) : target;
    }

    /** A watcher id from a request: "this node" in it means the sender's node. */
    private static ActorId normalizedFrom(final ActorId watcher, final Envelope envelope)
    {
        return watcher.nodeId() == 0 && envelope.sender().nodeId() != 0 ?
            watcher.onNode(envelope.sender().nodeId()) : watcher;
    }

    // ---------------------------------------------------------------- the keeper

    /** Makes sure the keeper follows the sessions with a node (it asks the watches again when one comes up). */
    private void follow(final int node)
    {
        ActorId k = keeper;
        if (k == null)
        {
            synchronized (keeperLock)
            {
                k = keeper;
                if (k == null)
                {
                    k = system.register((ctx, envelope) -> onKeeperEvent(ctx, envelope.event()));
                    keeper = k;
                }
            }
        }
        router.route(new Envelope(k, ActorId.NONE, 0, 0, 0L, new Follow(node), null), null);
    }

    private void onKeeperEvent(final ActorContext ctx, final Object event)
    {
        if (event instanceof Follow follow)
        {
            ctx.subscribeToNode(follow.nodeId()); // idempotent; answers at once if the session is up
        }
        else if (event instanceof NodeConnected connected)
        {
            final Set<Pair> pairs = remote.get(connected.nodeId());
            if (pairs != null)
            {
                for (final Pair pair : pairs)
                {
                    sendRequest(pair.target(), pair.watcher(), true, null);
                }
            }
        }
    }
}
