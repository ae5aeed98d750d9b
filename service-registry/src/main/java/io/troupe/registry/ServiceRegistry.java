package io.troupe.registry;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorRef;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.ServiceId;
import io.troupe.actor.ServiceKey;
import io.troupe.interconnect.Interconnect;
import io.troupe.interconnect.PeerCounters;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A node's service directory: the instances of every name on every node of the cluster. A node registers its own
 * actors under names; each node announces its instances to its peers (a snapshot when a session starts, changes
 * after), so every node can look any name up locally, and actors subscribe to a name to hear its instances come
 * and go.
 *
 * <ul>
 * <li>{@link #register} publishes an instance cluster-wide (a name may have instances on several nodes, and
 *     several on one); it also maps the name on this node to the first instance here, so sends to
 *     {@code ServiceId(this node, name)} reach one. {@link #unregister}, and the instance's actor passing away,
 *     remove it.</li>
 * <li>{@link #lookup} returns the live instances, each with its node and the incarnation that announced it:
 *     {@code ServiceId(0, name)} those of every node, {@code ServiceId(n, name)} node n's. Lookups read a
 *     concurrent map and take no lock.</li>
 * <li>{@link #subscribe} sends the subscriber {@link ServiceUp} for every live instance, then {@link ServiceUp} and
 *     {@link ServiceDown} as they change. A peer declared down takes its instances down at once; a peer back as a
 *     new incarnation replaces them.</li>
 * </ul>
 *
 * <p>Thread safe. The typed forms take a {@link ServiceKey} and give {@link ActorRef}s.
 */
public final class ServiceRegistry implements AutoCloseable
{
    private final ActorSystem system;
    private final Interconnect interconnect;
    private final Directory directory;
    private final ActorId actor;
    private final AutoCloseable passAways;
    private final AtomicInteger roundRobin = new AtomicInteger();
    private final CompletableFuture<Void> replicaOpened = new CompletableFuture<>();
    private volatile DirectoryReplica replica;

    private ServiceRegistry(final ActorSystem system, final Interconnect interconnect, final RegistryConfig config,
        final boolean replicaInBackground)
    {
        this.system = system;
        this.interconnect = interconnect;
        final long incarnation = interconnect == null ? 0 : interconnect.incarnation();
        final boolean replicaNow = config.replicaDirectory() != null && !replicaInBackground;
        this.replica = replicaNow ?
            DirectoryReplica.open(config.replicaDirectory(), system.nodeId(), incarnation, config.capacity()) : null;
        this.directory = new Directory(system, incarnation, config.capacity(),
            interconnect == null ? null : interconnect::sendDirectoryUpdate, this.replica);
        if (config.replicaDirectory() == null || replicaNow)
        {
            replicaOpened.complete(null);
        }
        else
        {
            openReplicaInBackground(config, incarnation);
        }
        this.actor = system.register(new DirectoryActor(directory));
        directory.notifier(actor); // notices go tracked from the first one: a gone subscriber is always found out
        this.passAways = system.onPassAway(gone ->
        {
            if (directory.servesAName(gone))
            {
                system.send(actor, new DirectoryActor.ActorGone(gone));
            }
        });
        if (interconnect != null)
        {
            interconnect.directoryListener(update -> system.send(actor, update));
        }
        final List<Integer> peers = new ArrayList<>();
        if (interconnect != null)
        {
            for (final PeerCounters peer : interconnect.peerCounters())
            {
                peers.add(peer.nodeId());
            }
        }
        system.send(actor, new DirectoryActor.Start(peers.stream().mapToInt(Integer::intValue).toArray()));
    }

    /**
     * Starts a node's directory on its actor system and interconnect, with the replica {@code config} names, if any,
     * open before it returns.
     *
     * @param system       the node's actor system.
     * @param interconnect the node's interconnect, or null for a node on its own (nothing is replicated).
     * @param config       the settings.
     * @return the directory.
     */
    public static ServiceRegistry start(final ActorSystem system, final Interconnect interconnect,
        final RegistryConfig config)
    {
        Objects.requireNonNull(system, "system");
        Objects.requireNonNull(config, "config");
        return new ServiceRegistry(system, interconnect, config, false);
    }

    /**
     * Starts a node's directory at once and opens its replica, if {@code config} names one, on a thread of its own
     * (the first Chronicle Map of a JVM takes about half a second to open): the replica gets every name the directory
     * holds by then, and each change after. {@link #replicaOpened()} says when it is ready, or why it could not be
     * opened (the directory works without it).
     *
     * @param system       the node's actor system.
     * @param interconnect the node's interconnect, or null for a node on its own.
     * @param config       the settings.
     * @return the directory; closing it closes the replica.
     */
    public static ServiceRegistry startReplicaInBackground(final ActorSystem system, final Interconnect interconnect,
        final RegistryConfig config)
    {
        Objects.requireNonNull(system, "system");
        Objects.requireNonNull(config, "config");
        return new ServiceRegistry(system, interconnect, config, true);
    }

    private void openReplicaInBackground(final RegistryConfig config, final long incarnation)
    {
        final Thread opener = new Thread(() ->
        {
            try
            {
                final DirectoryReplica opened = DirectoryReplica.open(config.replicaDirectory(), system.nodeId(),
                    incarnation, config.capacity());
                if (directory.attachReplica(opened))
                {
                    replica = opened;
                    replicaOpened.complete(null);
                }
                else
                {
                    opened.close();
                    // not a failure: the node stopped before the replica was needed
                    replicaOpened.completeExceptionally(new CancellationException("the directory closed before " +
                        "its replica in " + config.replicaDirectory() + " was open"));
                }
            }
            catch (final RuntimeException ex)
            {
                replicaOpened.completeExceptionally(ex);
            }
        }, "troupe-replica-" + system.nodeId());
        opener.setDaemon(true);
        opener.start();
    }

    /**
     * Completes when the directory's replica is open and holds every name (at once for a directory with no replica,
     * or one opened at start), or exceptionally saying why it could not be opened: with a
     * {@link CancellationException} when the directory closed first.
     *
     * @return the future.
     */
    public CompletableFuture<Void> replicaOpened()
    {
        return replicaOpened;
    }

    /**
     * Publishes an instance of a name cluster-wide. Registering it again changes nothing.
     *
     * @param name     the name, on node 0 or this node.
     * @param instance an actor of this node.
     * @return the instance as the directory holds it.
     * @throws IllegalArgumentException if the name is another node's or the instance is not an actor of this node.
     * @throws IllegalStateException    if the directory is at its capacity.
     */
    public ServiceInstance register(final ServiceId name, final ActorId instance)
    {
        return directory.register(Objects.requireNonNull(name, "name"), Objects.requireNonNull(instance, "instance"));
    }

    /**
     * {@link #register(ServiceId, ActorId)}, typed.
     *
     * @param key      the service's key.
     * @param instance an actor of this node that accepts the key's events.
     * @param <T>      what the service accepts.
     * @return the instance.
     */
    public <T> ServiceInstance register(final ServiceKey<T> key, final ActorRef<T> instance)
    {
        return register(key.id(), instance.id());
    }

    /**
     * Removes an instance of this node.
     *
     * @param name     the name.
     * @param instance the actor.
     * @return false if it was not registered.
     */
    public boolean unregister(final ServiceId name, final ActorId instance)
    {
        return directory.unregister(name, instance);
    }

    /**
     * {@link #unregister(ServiceId, ActorId)}, typed.
     *
     * @param key      the service's key.
     * @param instance the instance.
     * @param <T>      what the service accepts.
     * @return false if it was not registered.
     */
    public <T> boolean unregister(final ServiceKey<T> key, final ActorRef<T> instance)
    {
        return unregister(key.id(), instance.id());
    }

    /**
     * The live instances of a name.
     *
     * @param name {@code ServiceId(0, name)} for every node's, {@code ServiceId(n, name)} for node n's.
     * @return the instances, in the order they became live on their node; empty if none.
     */
    public List<ServiceInstance> lookup(final ServiceId name)
    {
        return directory.lookup(name);
    }

    /**
     * The live instances of a service, as typed references.
     *
     * @param key the service's key (its name on node 0: every node's instances).
     * @param <T> what the service accepts.
     * @return the references.
     */
    public <T> List<ActorRef<T>> lookup(final ServiceKey<T> key)
    {
        final List<ServiceInstance> instances = lookup(key.id().onNode(0));
        final List<ActorRef<T>> refs = new ArrayList<>(instances.size());
        for (final ServiceInstance instance : instances)
        {
            refs.add(instance.ref());
        }
        return refs;
    }

    /**
     * An instance of this node if there is one, else one of another node.
     *
     * @param name the name (its node is ignored).
     * @return the instance, or empty if the name has none.
     */
    public Optional<ServiceInstance> pickLocalFirst(final ServiceId name)
    {
        final ServiceInstance[] all = directory.instances(name);
        for (final ServiceInstance instance : all)
        {
            if (instance.nodeId() == system.nodeId())
            {
                return Optional.of(instance);
            }
        }
        return all.length == 0 ? Optional.empty() : Optional.of(all[0]);
    }

    /**
     * The instances in turn, one per call, across all nodes.
     *
     * @param name the name (its node is ignored).
     * @return the instance, or empty if the name has none.
     */
    public Optional<ServiceInstance> pickRoundRobin(final ServiceId name)
    {
        final ServiceInstance[] all = directory.instances(name);
        return all.length == 0 ? Optional.empty() :
            Optional.of(all[Math.floorMod(roundRobin.getAndIncrement(), all.length)]);
    }

    /**
     * Sends {@code subscriber} a {@link ServiceUp} for every live instance of the name now, then one for every
     * instance that comes and a {@link ServiceDown} for every one that goes. A subscriber that is gone is
     * forgotten at the next notice.
     *
     * @param name       {@code ServiceId(0, name)} for every node's instances, {@code ServiceId(n, name)} for
     *                   node n's.
     * @param subscriber an actor of this node.
     */
    public void subscribe(final ServiceId name, final ActorId subscriber)
    {
        directory.subscribe(Objects.requireNonNull(name, "name"), Objects.requireNonNull(subscriber, "subscriber"));
    }

    /**
     * Stops the notices of a name to a subscriber.
     *
     * @param name       the name as subscribed.
     * @param subscriber the subscriber.
     */
    public void unsubscribe(final ServiceId name, final ActorId subscriber)
    {
        directory.unsubscribe(name, subscriber);
    }

    /**
     * Instances held, of every node.
     *
     * @return the count.
     */
    public int size()
    {
        return directory.size();
    }

    /**
     * Peers' entries refused because the directory was at its capacity.
     *
     * @return the count.
     */
    public long refusedEntries()
    {
        return directory.refusedEntries.get();
    }

    /**
     * Peers' updates ignored as stale (of an older incarnation or version than held).
     *
     * @return the count.
     */
    public long staleUpdates()
    {
        return directory.staleUpdates.get();
    }

    /**
     * Whether a replica file that could not be used (damaged, of another layout) was moved aside at start.
     *
     * @return true if one was.
     */
    public boolean replicaSetAside()
    {
        return replica != null && replica.setAside();
    }

    /**
     * The directory's actor (the sender of its notices).
     *
     * @return the id.
     */
    public ActorId actor()
    {
        return actor;
    }

    /** Stops hearing peers' updates and pass-aways; lookups still answer from what is held. */
    @Override
    public void close()
    {
        if (interconnect != null)
        {
            interconnect.directoryListener(null);
        }
        try
        {
            passAways.close();
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException("cannot stop hearing pass-aways", ex);
        }
        finally
        {
            directory.closeReplica();
        }
    }
}
