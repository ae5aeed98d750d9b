package io.troupe.registry;

import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.Envelope;
import io.troupe.actor.ServiceId;
import io.troupe.interconnect.DirectoryUpdate;
import io.troupe.serialization.wire.DirectoryEntry;
import io.troupe.serialization.wire.DirectoryOp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A node's view of the cluster's services: this node's instances, each peer's as that peer last announced them,
 * and who subscribed to which name.
 *
 * <p>Lock: every change takes this object's monitor, because changes come from three kinds of thread (a user's
 * {@code register}, the directory actor applying peers' updates and node notices, a worker whose actor passed
 * away via the actor) and must reach peers in the order of this node's versions. Changes are rare and short, and
 * nothing under the monitor blocks: sends and replication hand-offs are non-blocking queues. Lookups take no lock:
 * they read {@link #byName}, whose values are replaced whole.
 *
 * <p>Replication: this node's version goes up by one with every change, which goes to every connected peer as a
 * delta; a peer gets a whole snapshot at a fresh version when its session starts. A peer's updates are applied by
 * the rules of {@link PeerDirectory}.
 */
final class Directory
{
    private static final ServiceInstance[] NONE = new ServiceInstance[0];

    /** Sends this node's directory, or a change, to a peer; false if it could not be queued. */
    @FunctionalInterface
    interface Replicator
    {
        boolean send(int peer, long version, boolean snapshot, List<DirectoryEntry> entries);
    }

    private final ActorSystem system;
    private final int nodeId;
    private final long incarnation;
    private final int capacity;
    private final Replicator replicator;
    /** The shared-memory replica, or null (none, or not open yet); written under the monitor. */
    private DirectoryReplica replica;
    /** Set under the monitor when the directory closes: a replica opened later is not attached. */
    private boolean replicaClosed;
    /** Live instances by name (the name on node 0), every node's. */
    private final ConcurrentHashMap<ServiceId, ServiceInstance[]> byName = new ConcurrentHashMap<>();
    /** Actors of this node that serve a name: a pass-away is looked up here before it bothers the actor. */
    private final Set<ActorId> ownActors = ConcurrentHashMap.newKeySet();
    final AtomicLong refusedEntries = new AtomicLong();
    final AtomicLong staleUpdates = new AtomicLong();

    // under the monitor
    /** This node's instances: name (on node 0) and actor, in registration order. */
    private final Map<ServiceId, Set<ActorId>> own = new LinkedHashMap<>();
    private long version;
    private final Map<Integer, PeerDirectory> peers = new HashMap<>();
    private final Set<Integer> connected = new HashSet<>();
    private final Set<Integer> resync = new HashSet<>();
    /** Subscribers by name (on node 0): subscriber to the node it watches (0 for all). */
    private final Map<ServiceId, Map<ActorId, Integer>> subscribers = new HashMap<>();
    private int size;
    private ActorId notifier = ActorId.NONE;

    Directory(final ActorSystem system, final long incarnation, final int capacity, final Replicator replicator,
        final DirectoryReplica replica)
    {
        this.replica = replica;
        this.system = system;
        this.nodeId = system.nodeId();
        this.incarnation = incarnation;
        this.capacity = capacity;
        this.replicator = replicator;
    }

    synchronized void closeReplica()
    {
        replicaClosed = true;
        if (replica != null)
        {
            replica.close();
        }
    }

    /**
     * Attaches a replica opened after the directory started: every name held now is written into it, and each change
     * from now on.
     *
     * @param opened the replica.
     * @return false if the directory closed meanwhile (the caller closes the replica).
     */
    synchronized boolean attachReplica(final DirectoryReplica opened)
    {
        if (replicaClosed)
        {
            return false;
        }
        byName.forEach(opened::put);
        replica = opened;
        return true;
    }

    synchronized void notifier(final ActorId actor)
    {
        this.notifier = actor;
    }

    // ------------------------------------------------------------------ lookups (no lock)

    List<ServiceInstance> lookup(final ServiceId name)
    {
        final ServiceInstance[] all = byName.getOrDefault(name.onNode(0), NONE);
        final int node = name.nodeId();
        if (node == 0 || all.length == 0)
        {
            return List.of(all);
        }
        final List<ServiceInstance> onNode = new ArrayList<>(1);
        for (final ServiceInstance instance : all)
        {
            if (instance.nodeId() == node)
            {
                onNode.add(instance);
            }
        }
        return onNode;
    }

    ServiceInstance[] instances(final ServiceId name)
    {
        return byName.getOrDefault(name.onNode(0), NONE);
    }

    boolean servesAName(final ActorId actor)
    {
        return ownActors.contains(actor);
    }

    synchronized int size()
    {
        return size;
    }

    // ------------------------------------------------------------------ this node's instances

    synchronized ServiceInstance register(final ServiceId name, final ActorId actor)
    {
        if (name.nodeId() != 0 && name.nodeId() != nodeId)
        {
            throw new IllegalArgumentException("service " + name + " names node " + name.nodeId() + "; a node " +
                "registers its own services: use node 0 or " + nodeId);
        }
        if (actor.isService() || (actor.nodeId() != nodeId && actor.nodeId() != 0))
        {
            throw new IllegalArgumentException("an instance of " + name + " must be an actor of this node (" + nodeId +
                "), not " + actor);
        }
        final ServiceId key = name.onNode(0);
        final ActorId instanceActor = actor.onNode(nodeId);
        final Set<ActorId> actors = own.computeIfAbsent(key, k -> new LinkedHashSet<>());
        final ServiceInstance instance = new ServiceInstance(key.onNode(nodeId), instanceActor, incarnation);
        if (actors.contains(instanceActor))
        {
            return instance; // registered already
        }
        if (size >= capacity)
        {
            if (actors.isEmpty())
            {
                own.remove(key);
            }
            throw new IllegalStateException("the service directory is full: " + size + " instances, its capacity " +
                "(RegistryConfig.capacity, troupe.registry.capacity); " + name + " was not registered");
        }
        actors.add(instanceActor);
        ownActors.add(instanceActor);
        version++;
        // mapped before anyone hears of it: a subscriber told ServiceUp may send to the name at once
        if (system.lookupService(key) == null)
        {
            system.registerService(key, instanceActor); // sends to ServiceId(this node, name) reach it
        }
        added(instance);
        replicate(List.of(new DirectoryEntry(key.onNode(nodeId), instanceActor, DirectoryOp.REGISTER)));
        return instance;
    }

    synchronized boolean unregister(final ServiceId name, final ActorId actor)
    {
        final ServiceId key = name.onNode(0);
        final ActorId instanceActor = actor.onNode(nodeId);
        final Set<ActorId> actors = own.get(key);
        if (actors == null || !actors.remove(instanceActor))
        {
            return false;
        }
        if (actors.isEmpty())
        {
            own.remove(key);
        }
        if (own.values().stream().noneMatch(set -> set.contains(instanceActor)))
        {
            ownActors.remove(instanceActor);
        }
        version++;
        // unmapped before anyone hears of it: a subscriber told ServiceDown no longer reaches the instance by name
        if (instanceActor.equals(system.lookupService(key)))
        {
            // the local name pointed at it: point it at another instance here, or at none
            system.unregisterService(key);
            if (!actors.isEmpty())
            {
                system.registerService(key, actors.iterator().next());
            }
        }
        removed(new ServiceInstance(key.onNode(nodeId), instanceActor, incarnation));
        replicate(List.of(new DirectoryEntry(key.onNode(nodeId), instanceActor, DirectoryOp.UNREGISTER)));
        return true;
    }

    /** An actor of this node passed away: every name it served loses it. */
    synchronized int actorGone(final ActorId actor)
    {
        final List<ServiceId> names = new ArrayList<>();
        for (final Map.Entry<ServiceId, Set<ActorId>> entry : own.entrySet())
        {
            if (entry.getValue().contains(actor))
            {
                names.add(entry.getKey());
            }
        }
        for (final ServiceId name : names)
        {
            unregister(name, actor);
        }
        return names.size();
    }

    // ------------------------------------------------------------------ peers

    synchronized void nodeConnected(final int node)
    {
        connected.add(node);
        sendSnapshot(node);
    }

    synchronized void nodeDisconnected(final int node)
    {
        connected.remove(node);
        resync.remove(node);
        final PeerDirectory peer = peers.get(node);
        if (peer != null)
        {
            for (final ServiceInstance gone : peer.clear())
            {
                removed(gone);
            }
        }
    }

    synchronized void peerUpdate(final DirectoryUpdate update)
    {
        final PeerDirectory peer = peers.computeIfAbsent(update.nodeId(), PeerDirectory::new);
        final PeerDirectory.Change change = peer.apply(update, capacity - size);
        if (change == null)
        {
            staleUpdates.incrementAndGet();
            return;
        }
        refusedEntries.addAndGet(change.refused());
        for (final ServiceInstance gone : change.removed())
        {
            removed(gone);
        }
        for (final ServiceInstance came : change.added())
        {
            added(came);
        }
    }

    /** Sends snapshots that could not be queued before. */
    synchronized void retryResync()
    {
        if (resync.isEmpty())
        {
            return;
        }
        for (final Integer node : new ArrayList<>(resync))
        {
            resync.remove(node);
            sendSnapshot(node);
        }
    }

    private void sendSnapshot(final int node)
    {
        if (replicator == null)
        {
            return;
        }
        version++; // a fresh version: the peer replaces what it held of this node
        final List<DirectoryEntry> entries = new ArrayList<>();
        for (final Map.Entry<ServiceId, Set<ActorId>> entry : own.entrySet())
        {
            for (final ActorId actor : entry.getValue())
            {
                entries.add(new DirectoryEntry(entry.getKey().onNode(nodeId), actor, DirectoryOp.REGISTER));
            }
        }
        if (!replicator.send(node, version, true, entries))
        {
            resync.add(node);
        }
    }

    private void replicate(final List<DirectoryEntry> delta)
    {
        if (replicator == null)
        {
            return;
        }
        for (final Integer node : connected)
        {
            if (!resync.contains(node) && !replicator.send(node, version, false, delta))
            {
                resync.add(node); // a delta that could not be queued: the peer gets a whole snapshot instead
            }
        }
    }

    // ------------------------------------------------------------------ subscribers

    synchronized void subscribe(final ServiceId name, final ActorId subscriber)
    {
        subscribers.computeIfAbsent(name.onNode(0), k -> new HashMap<>()).put(subscriber, name.nodeId());
        for (final ServiceInstance instance : instances(name))
        {
            if (name.nodeId() == 0 || instance.nodeId() == name.nodeId())
            {
                notify(subscriber, ServiceUp.TYPE, new ServiceUp(instance));
            }
        }
    }

    synchronized void unsubscribe(final ServiceId name, final ActorId subscriber)
    {
        final Map<ActorId, Integer> set = subscribers.get(name.onNode(0));
        if (set != null && set.remove(subscriber) != null && set.isEmpty())
        {
            subscribers.remove(name.onNode(0));
        }
    }

    /** A subscriber that is gone (a notice to it came back undelivered). */
    synchronized void forgetSubscriber(final ActorId subscriber)
    {
        final Iterator<Map<ActorId, Integer>> sets = subscribers.values().iterator();
        while (sets.hasNext())
        {
            final Map<ActorId, Integer> set = sets.next();
            set.remove(subscriber);
            if (set.isEmpty())
            {
                sets.remove();
            }
        }
    }

    // ------------------------------------------------------------------ the view

    private void added(final ServiceInstance instance)
    {
        final ServiceId key = instance.service().onNode(0);
        final ServiceInstance[] before = byName.getOrDefault(key, NONE);
        final ServiceInstance[] after = Arrays.copyOf(before, before.length + 1);
        after[before.length] = instance;
        byName.put(key, after);
        if (replica != null)
        {
            replica.put(key, after);
        }
        size++;
        tell(key, instance, true);
    }

    private void removed(final ServiceInstance instance)
    {
        final ServiceId key = instance.service().onNode(0);
        final ServiceInstance[] before = byName.get(key);
        if (before == null)
        {
            return;
        }
        int at = -1;
        for (int i = 0; i < before.length; i++)
        {
            if (before[i].actor().equals(instance.actor()))
            {
                at = i;
                break;
            }
        }
        if (at < 0)
        {
            return;
        }
        final ServiceInstance[] after = new ServiceInstance[before.length - 1];
        System.arraycopy(before, 0, after, 0, at);
        System.arraycopy(before, at + 1, after, at, before.length - at - 1);
        if (after.length == 0)
        {
            byName.remove(key);
        }
        else
        {
            byName.put(key, after);
        }
        if (replica != null)
        {
            replica.put(key, after);
        }
        size--;
        tell(key, before[at], false);
    }

    private void tell(final ServiceId key, final ServiceInstance instance, final boolean up)
    {
        final Map<ActorId, Integer> set = subscribers.get(key);
        if (set == null)
        {
            return;
        }
        for (final Map.Entry<ActorId, Integer> subscriber : set.entrySet())
        {
            if (subscriber.getValue() == 0 || subscriber.getValue() == instance.nodeId())
            {
                notify(subscriber.getKey(), up ? ServiceUp.TYPE : ServiceDown.TYPE,
                    up ? new ServiceUp(instance) : new ServiceDown(instance));
            }
        }
    }

    /** A notice, tracked: one that comes back undelivered tells the directory actor its subscriber is gone. */
    private void notify(final ActorId subscriber, final int type, final Object notice)
    {
        ActorSystemSpi.of(system).send(
            new Envelope(subscriber, notifier, type, notifier.isNone() ? 0 : Envelope.FLAG_TRACK_DELIVERY, 0L,
            notice, null));
    }
}
