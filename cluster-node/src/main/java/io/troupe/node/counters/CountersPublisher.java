package io.troupe.node.counters;

import io.troupe.actor.ActorSystem;
import io.troupe.actor.CreditCounter;
import io.troupe.actor.PoolCounter;
import io.troupe.actor.PoolCounters;
import io.troupe.actor.SystemCounter;
import io.troupe.actor.SystemCounters;
import io.troupe.broker.BrokerDirectory;
import io.troupe.interconnect.FrameRejection;
import io.troupe.interconnect.Interconnect;
import io.troupe.interconnect.InterconnectCounter;
import io.troupe.interconnect.InterconnectCounters;
import io.troupe.interconnect.PeerCounter;
import io.troupe.interconnect.PeerCounters;
import io.troupe.interconnect.scheduler.SchedulerCounters;
import io.troupe.memquota.CounterDescriptor;
import io.troupe.memquota.MemoryQuotaCounter;
import io.troupe.node.client.ClientCounter;
import io.troupe.node.client.ClientIngress;
import io.troupe.node.client.ClientIngressCounter;
import io.troupe.membership.Membership;
import io.troupe.membership.MembershipCounter;
import io.troupe.membership.table.Member;
import io.troupe.membership.table.MemberStatus;
import io.troupe.registry.RegistryCounter;
import io.troupe.registry.ServiceRegistry;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.status.AtomicCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Copies a node's counters into its counters file every interval: the agent of the node's counters thread. The parts
 * of the node keep counting in their own fields, as they always have (no shared cache line, no extra work on a hot
 * path); this agent reads them, as any thread may, and sets the file's counters, so the file lags the node by at most
 * one interval. Counters are allocated when what they count first appears (a pool, a peer, a rejection reason) and
 * freed when it goes. Owned by one thread.
 */
public final class CountersPublisher implements Agent
{
    private static final List<NodeCounter> NODE = List.of(NodeCounter.values());
    private static final List<SystemCounter> SYSTEM = List.of(SystemCounter.values());
    private static final List<PoolCounter> POOL = List.of(PoolCounter.values());
    private static final List<MemoryQuotaCounter> MEMORY_QUOTA = List.of(MemoryQuotaCounter.values());
    private static final List<CreditCounter> CREDIT = List.of(CreditCounter.values());
    private static final List<InterconnectCounter> INTERCONNECT = List.of(InterconnectCounter.values());
    private static final List<PeerCounter> PEER = List.of(PeerCounter.values());
    private static final List<SchedulerCounters.Counter> SCHEDULER = List.of(SchedulerCounters.Counter.values());
    private static final List<RegistryCounter> REGISTRY = List.of(RegistryCounter.values());
    private static final List<MembershipCounter> MEMBERSHIP = List.of(MembershipCounter.values());
    private static final List<ClientIngressCounter> CLIENT_INGRESS = List.of(ClientIngressCounter.values());
    private static final List<ClientCounter> CLIENT = List.of(ClientCounter.values());

    /**
     * Where the figures come from: the node's parts, and its own few counts.
     *
     * @param system            the actor system.
     * @param interconnect      the interconnect, or null.
     * @param registry          the service directory, or null.
     * @param clients           the client ingress, or null.
     * @param brokers           the node's named brokers, or null.
     * @param errors            the node's error recorder.
     * @param remoteDeadLetters dead letters of events from other nodes.
     * @param remoteNoticesSent Undelivered notices sent to other nodes.
     * @param remoteNoticesLost Undelivered notices for other nodes that could not be sent.
     * @param shutdownDrained   1 once a clean stop drained completely.
     * @param controlRequests   control requests taken.
     * @param controlRefused    control requests refused.
     * @param scheduler         the peer scheduler's counts, or null.
     * @param membership        the node's membership, or null for a node of a static peer list.
     */
    public record Sources(ActorSystem system, Interconnect interconnect, ServiceRegistry registry,
        ClientIngress clients, BrokerDirectory brokers, ErrorRecorder errors, LongSupplier remoteDeadLetters,
        LongSupplier remoteNoticesSent, LongSupplier remoteNoticesLost, LongSupplier shutdownDrained,
        LongSupplier controlRequests, LongSupplier controlRefused, SchedulerCounters scheduler, Membership membership)
    {
    }

    private final CountersFile file;
    private final Sources sources;
    private final NanoClock nanoClock;
    private final EpochClock epochClock;
    private final long intervalNs;
    /**
     * Node-wide counters, pools' (configured, so their rows stay for the node's life) and peers' (freed when a peer is
     * no longer in the interconnect's list).
     */
    private final CounterRows<String>.Row fixed;
    private final CounterRows<String> pools = new CounterRows<>(this::allocate);
    private final CounterRows<Integer> peers = new CounterRows<>(this::allocate);
    private final EnumMap<FrameRejection, AtomicCounter> rejections = new EnumMap<>(FrameRejection.class);
    private final KeyedCountersPublisher keyed;
    private long nextNs;
    /** The readiness last written ("" before the first). */
    private String readiness = "";
    private boolean full;

    /**
     * A publisher.
     *
     * @param file       the node's counters file.
     * @param sources    the node's parts.
     * @param nanoClock  for the interval.
     * @param epochClock for the heartbeat.
     * @param intervalNs how often to publish.
     */
    public CountersPublisher(final CountersFile file, final Sources sources, final NanoClock nanoClock,
        final EpochClock epochClock, final long intervalNs)
    {
        this.file = file;
        this.sources = sources;
        this.nanoClock = nanoClock;
        this.epochClock = epochClock;
        this.intervalNs = intervalNs;
        this.nextNs = nanoClock.nanoTime();
        this.keyed = new KeyedCountersPublisher(file, this::allocate);
        this.fixed = new CounterRows<String>(this::allocate).row("", "");
    }

    @Override
    public int doWork()
    {
        final long nowNs = nanoClock.nanoTime();
        if (nowNs - nextNs < 0)
        {
            return 0;
        }
        nextNs = nowNs + intervalNs;
        publish();
        return 1;
    }

    @Override
    public String roleName()
    {
        return "troupe-counters-" + sources.system().nodeId();
    }

    /**
     * Publishes once, now: every counter, then the heartbeat. Also the last thing the node does before it stops.
     * Synchronized: the counters thread and a caller that wants the latest figures take turns (allocation in the
     * file is single-threaded). Each group of counters is published from its declarations
     * ({@link CounterRows.Row#setAll}).
     */
    public synchronized void publish()
    {
        final ActorSystem system = sources.system();
        final SystemCounters counters = system.counters();
        fixed.setAll(SYSTEM, counters);
        for (final PoolCounters pool : counters.pools())
        {
            pools.row(pool.name(), "pool=" + pool.name()).setAll(POOL, pool);
        }
        fixed.setAll(MEMORY_QUOTA, system.memoryQuota().counters());
        fixed.setAll(CREDIT, system.flow());
        fixed.set(NodeCounter.CREDIT_ACCOUNTS_UNPUBLISHED, keyed.publishAccounts(system.flow()));
        fixed.setAll(NODE, sources);
        final List<PeerCounters> peerList = sources.interconnect() == null ? List.of() :
            sources.interconnect().peerCounters();
        if (sources.interconnect() != null)
        {
            publishInterconnect(sources.interconnect(), peerList);
        }
        if (sources.registry() != null)
        {
            fixed.setAll(REGISTRY, sources.registry());
        }
        if (sources.membership() != null)
        {
            fixed.setAll(MEMBERSHIP, sources.membership());
        }
        if (sources.clients() != null)
        {
            fixed.setAll(CLIENT_INGRESS, sources.clients());
            fixed.setAll(CLIENT, sources.clients());
            keyed.publishSessions(sources.clients().sessions());
        }
        if (sources.brokers() != null)
        {
            keyed.publishBrokers(sources.brokers());
        }
        publishReadiness(peerList);
        file.heartbeat(epochClock.time());
    }

    private void publishInterconnect(final Interconnect interconnect, final List<PeerCounters> peerList)
    {
        final InterconnectCounters counts = interconnect.counters();
        for (final FrameRejection reason : FrameRejection.values())
        {
            final long rejected = counts.rejectedFrames(reason);
            AtomicCounter counter = rejections.get(reason);
            if (counter == null && rejected != 0) // a reason appears the first time it happens
            {
                counter = allocate(InterconnectCounter.FRAMES_REJECTED,
                    "reason=" + reason.name().toLowerCase(Locale.ROOT));
                if (counter != null)
                {
                    rejections.put(reason, counter);
                }
            }
            if (counter != null)
            {
                counter.setRelease(rejected);
            }
        }
        fixed.setAll(INTERCONNECT, interconnect);
        final SchedulerCounters scheduler = sources.scheduler();
        final Map<Integer, Long> inFlight = scheduler == null ? Map.of() : scheduler.inFlightByPeer();
        peers.begin(); // a peer that left the interconnect's list has its rows freed at the end of the pass
        for (final PeerCounters peer : peerList)
        {
            final CounterRows<Integer>.Row row = peers.row(peer.nodeId(), "peer=" + peer.nodeId());
            row.setAll(PEER, peer);
            if (scheduler != null)
            {
                row.set(PeerCounter.PEER_SCHEDULED_IN_FLIGHT, inFlight.getOrDefault(peer.nodeId(), 0L));
            }
        }
        peers.end();
        if (scheduler != null)
        {
            fixed.setAll(SCHEDULER, scheduler);
        }
    }

    /**
     * Says whether the node is ready (running, its directory's replica open if it has one, and with a membership UP
     * in it; without one, a session with every peer) and, if not, why, in the file's header and,
     * when it changes, in the log: "not ready: 0 of 2 peers up; node 2 refuses: its proof of the cluster secret is
     * wrong ...".
     */
    private void publishReadiness(final List<PeerCounters> peerList)
    {
        final NodeState state = file.state();
        int up = 0;
        for (final PeerCounters peer : peerList)
        {
            up += peer.connected() ? 1 : 0;
        }
        final StringBuilder text = new StringBuilder();
        if (state != NodeState.RUNNING)
        {
            text.append("not ready: ").append(state.name().toLowerCase(Locale.ROOT));
        }
        else if (sources.registry() != null && !sources.registry().replicaOpened().isDone())
        {
            // processes on this host read the directory from it (troupe services, clients): a node serves them too
            text.append("not ready: opening the directory replica");
        }
        else if (sources.membership() != null)
        {
            // a member serves once the membership has it UP: a peer that is down is the membership's to settle,
            // not a reason to take every node out of its load balancer
            final MemberStatus status = ownStatus(sources.membership());
            text.append(status == MemberStatus.UP ? "ready: a member (UP)" : "not ready: " +
                (status == null ? "not a member" : status.name().toLowerCase(Locale.ROOT)))
                .append("; ").append(up).append(" of ").append(peerList.size()).append(" peers up");
        }
        else if (up == peerList.size())
        {
            text.append("ready: ").append(peerList.isEmpty() ? "no peers" : up + " of " + up + " peers up");
        }
        else
        {
            text.append("not ready: ").append(up).append(" of ").append(peerList.size()).append(" peers up");
            for (final PeerCounters peer : peerList)
            {
                if (!peer.connected())
                {
                    text.append("; ").append(peer.refusal() != null ? peer.refusal() : "node " + peer.nodeId() +
                        (peer.sessionsDown() > 0 ? ": session lost, no new one yet" : ": no session yet"));
                }
            }
        }
        final String now = text.toString();
        if (!now.equals(readiness))
        {
            final Logger log = LoggerFactory.getLogger(CountersPublisher.class);
            if (now.startsWith("ready") || readiness.isEmpty() && !now.contains("refuse"))
            {
                log.info("node {}: {}", sources.system().nodeId(), now);
            }
            else
            {
                log.warn("node {}: {}", sources.system().nodeId(), now);
            }
            readiness = now;
            file.readiness(now);
        }
    }

    private MemberStatus ownStatus(final Membership membership)
    {
        for (final Member member : membership.members())
        {
            if (member.nodeId() == sources.system().nodeId())
            {
                return member.status();
            }
        }
        return null;
    }

    private AtomicCounter allocate(final CounterDescriptor type, final String labels)
    {
        return allocate(type.typeId(), type.metricName(), labels);
    }

    /** A new counter, or null (once logged) when the file is full: the node goes on without it. */
    private AtomicCounter allocate(final int typeId, final String name, final String labels)
    {
        if (file.available() == 0)
        {
            if (!full)
            {
                full = true;
                LoggerFactory.getLogger(CountersPublisher.class).warn("node {}: the counters file {} is " +
                    "full; raise troupe.ops.max-counters (counters not published from now on are left out)",
                    sources.system().nodeId(), file.path());
            }
            return null;
        }
        return file.allocate(typeId, name, labels);
    }
}
