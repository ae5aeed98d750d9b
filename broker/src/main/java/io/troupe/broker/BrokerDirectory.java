package io.troupe.broker;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.ServiceId;
import org.agrona.concurrent.SystemNanoClock;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.regex.Pattern;

/**
 * A node's named brokers: each is started as a service of this node (reachable from other nodes by
 * {@code ServiceId.of(node, name)}), publishes its figures ({@link BrokerGauges}) for the node's counters and the
 * {@code troupe brokers} command, and can be given new queue policies while it runs ({@code troupe broker set}).
 * Thread safe. A node has one ({@code Node.brokers()}); brokers started with {@link Brokers#start} directly are
 * not in it and not in the node's counters.
 */
public final class BrokerDirectory
{
    /** Brokers a directory holds at most: each costs counters in the node's counters file. */
    public static final int MAX_BROKERS = 256;
    /** What a broker's name may be: it is a service name and a counter label. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1," + ServiceId.MAX_NAME_LENGTH + "}");

    private final ActorSystem system;
    private final Map<String, Entry> brokers = new ConcurrentSkipListMap<>();
    /** The last configuration given to each broker (it applies it a little later): what the next change builds on. */
    private final Map<String, BrokerSpec> given = new HashMap<>();

    /**
     * One broker of the directory.
     *
     * @param name    its name, also its service name on this node.
     * @param id      its actor id.
     * @param service its service id.
     * @param gauges  its figures and its configuration now.
     */
    public record Entry(String name, ActorId id, ServiceId service, BrokerGauges gauges)
    {
    }

    /**
     * A directory for the brokers of one actor system.
     *
     * @param system the node's actor system.
     */
    public BrokerDirectory(final ActorSystem system)
    {
        this.system = system;
    }

    /**
     * Starts a broker, registered as the service {@code name} of this node.
     *
     * @param name its name: 1 to 12 of letters, digits, '.', '_', '-'.
     * @param spec its configuration.
     * @return its actor id.
     * @throws IllegalArgumentException if the name is not allowed or already taken (by a broker or a service).
     * @throws IllegalStateException    if the directory holds {@link #MAX_BROKERS} brokers.
     */
    public synchronized ActorId start(final String name, final BrokerSpec spec)
    {
        if (name == null || !NAME.matcher(name).matches())
        {
            throw new IllegalArgumentException("broker name '" + name + "' is not allowed: 1 to " +
                ServiceId.MAX_NAME_LENGTH + " of letters, digits, '.', '_' and '-'");
        }
        if (brokers.containsKey(name))
        {
            throw new IllegalArgumentException("a broker named '" + name + "' runs already");
        }
        if (brokers.size() >= MAX_BROKERS)
        {
            throw new IllegalStateException("this node runs " + MAX_BROKERS + " brokers, the most it may");
        }
        final ServiceId service = ServiceId.of(system.nodeId(), name);
        if (system.lookupService(service) != null)
        {
            throw new IllegalArgumentException("the service name '" + name + "' is taken on this node");
        }
        final BrokerGauges gauges = new BrokerGauges(spec);
        final ActorId id = system.register(new BrokerActor(spec, SystemNanoClock.INSTANCE, gauges));
        system.registerService(service, id);
        brokers.put(name, new Entry(name, id, service, gauges));
        given.put(name, spec);
        return id;
    }

    /**
     * A broker by name.
     *
     * @param name its name.
     * @return it, or null if this directory has no broker of that name.
     */
    public Entry get(final String name)
    {
        return name == null ? null : brokers.get(name);
    }

    /**
     * Every broker, by name.
     *
     * @return a snapshot.
     */
    public List<Entry> list()
    {
        return List.copyOf(brokers.values());
    }

    /**
     * Gives a running broker new queue policies; its meters stay. Queued requests move to the new queues in order
     * (see {@link Reconfigure}); the broker applies it after the events queued before it.
     *
     * @param name  the broker.
     * @param ask   the new policy of the ask side, or null to keep it.
     * @param askR  the new policy of the askR side, or null to keep it.
     * @return the configuration sent.
     * @throws IllegalArgumentException if no broker has that name, or both policies are null.
     */
    public synchronized BrokerSpec reconfigureQueues(final String name, final QueueSpec ask, final QueueSpec askR)
    {
        final Entry entry = get(name);
        if (entry == null)
        {
            throw new IllegalArgumentException("no broker named '" + name + "' on this node" +
                (brokers.isEmpty() ? " (it runs none)" : " (it runs " + String.join(", ", brokers.keySet()) + ")"));
        }
        if (ask == null && askR == null)
        {
            throw new IllegalArgumentException("give a new policy for the ask side, the askR side or both");
        }
        final BrokerSpec now = given.get(name);
        final BrokerSpec next = new BrokerSpec(ask == null ? now.ask() : ask, askR == null ? now.askR() : askR,
            now.meters());
        Brokers.reconfigure(system, entry.id(), next);
        given.put(name, next);
        return next;
    }
}
