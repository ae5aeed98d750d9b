package io.troupe.node.counters;

import io.troupe.actor.ActorSystem;
import io.troupe.actor.FlowControl;
import io.troupe.actor.PoolCounters;
import io.troupe.actor.SystemCounters;
import io.troupe.broker.BrokerDirectory;
import io.troupe.interconnect.FrameRejection;
import io.troupe.interconnect.Interconnect;
import io.troupe.interconnect.InterconnectCounters;
import io.troupe.interconnect.PeerCounters;
import io.troupe.interconnect.scheduler.SchedulerCounters;
import io.troupe.memquota.MemoryQuotaCounters;
import io.troupe.node.client.ClientCounter;
import io.troupe.node.client.ClientIngress;
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
     */
    public record Sources(ActorSystem system, Interconnect interconnect, ServiceRegistry registry,
        ClientIngress clients, BrokerDirectory brokers, ErrorRecorder errors, LongSupplier remoteDeadLetters,
        LongSupplier remoteNoticesSent, LongSupplier remoteNoticesLost, LongSupplier shutdownDrained,
        LongSupplier controlRequests, LongSupplier controlRefused, SchedulerCounters scheduler)
    {
    }

    private final CountersFile file;
    private final Sources sources;
    private final NanoClock nanoClock;
    private final EpochClock epochClock;
    private final long intervalNs;
    /**
     * Node-wide counters, pools' and peers' (pools and peers are configured, so their rows stay for the node's life).
     */
    private final CounterRows<String>.Row fixed;
    private final CounterRows<String> pools = new CounterRows<>(this::allocate);
    private final CounterRows<Integer> peers = new CounterRows<>(this::allocate);
    private final EnumMap<FrameRejection, AtomicCounter> rejections = new EnumMap<>(FrameRejection.class);
    private final EnumMap<ClientCounter, AtomicCounter> clients = new EnumMap<>(ClientCounter.class);
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
     * file is single-threaded).
     */
    public synchronized void publish()
    {
        publishSystem(sources.system().counters());
        publishMemoryQuota(sources.system().memoryQuota().counters());
        publishFlow(sources.system().flow());
        set(CounterType.CREDIT_ACCOUNTS_UNPUBLISHED, keyed.publishAccounts(sources.system().flow()));
        set(CounterType.AGENT_ERRORS, sources.errors().errors());
        set(CounterType.AGENT_ERRORS_UNRECORDED, sources.errors().unrecorded());
        set(CounterType.REMOTE_DEAD_LETTERS, sources.remoteDeadLetters().getAsLong());
        set(CounterType.REMOTE_NOTICES_SENT, sources.remoteNoticesSent().getAsLong());
        set(CounterType.REMOTE_NOTICES_LOST, sources.remoteNoticesLost().getAsLong());
        set(CounterType.SHUTDOWN_DRAINED, sources.shutdownDrained().getAsLong());
        set(CounterType.CONTROL_REQUESTS, sources.controlRequests().getAsLong());
        set(CounterType.CONTROL_REFUSED, sources.controlRefused().getAsLong());
        final List<PeerCounters> peerList = sources.interconnect() == null ? List.of() :
            sources.interconnect().peerCounters();
        if (sources.interconnect() != null)
        {
            publishInterconnect(sources.interconnect(), peerList);
            if (sources.scheduler() != null)
            {
                publishScheduler(sources.scheduler(), peerList);
            }
        }
        if (sources.registry() != null)
        {
            final ServiceRegistry registry = sources.registry();
            set(CounterType.REGISTRY_ENTRIES, registry.size());
            set(CounterType.REGISTRY_REFUSED_ENTRIES, registry.refusedEntries());
            set(CounterType.REGISTRY_STALE_UPDATES, registry.staleUpdates());
            set(CounterType.REGISTRY_REPLICA_SET_ASIDE, registry.replicaSetAside() ? 1 : 0);
        }
        if (sources.clients() != null)
        {
            publishClients(sources.clients());
            keyed.publishSessions(sources.clients().sessions());
        }
        if (sources.brokers() != null)
        {
            keyed.publishBrokers(sources.brokers(), System.nanoTime()); // brokers run on System.nanoTime()
        }
        publishReadiness(peerList);
        file.heartbeat(epochClock.time());
    }

    private void publishSystem(final SystemCounters counters)
    {
        set(CounterType.ACTORS_REGISTERED, counters.actorsRegistered());
        set(CounterType.ACTORS_ALIVE, counters.actorsAlive());
        set(CounterType.MAILBOXES_CREATED, counters.mailboxesCreated());
        set(CounterType.MAILBOXES_VACANT, counters.mailboxesVacant());
        set(CounterType.UNDELIVERED, counters.undelivered());
        set(CounterType.DROPPED, counters.dropped());
        set(CounterType.FORWARDED, counters.forwarded());
        set(CounterType.DEAD_LETTERS, counters.deadLetters());
        set(CounterType.HANDLER_FAILURES, counters.handlerFailures());
        set(CounterType.REJECTED_SENDS, counters.rejectedSends());
        set(CounterType.TIMERS_SCHEDULED, counters.timersScheduled());
        set(CounterType.TIMERS_FIRED, counters.timersFired());
        set(CounterType.TIMERS_STALE, counters.timersStale());
        set(CounterType.TIMERS_DISCARDED, counters.timersDiscarded());
        set(CounterType.MAILBOXES_COLLAPSED, counters.mailboxesCollapsed());
        set(CounterType.ASKS_PENDING, counters.asksPending());
        set(CounterType.ASKS_TIMED_OUT, counters.asksTimedOut());
        set(CounterType.LATE_REPLIES, counters.lateReplies());
        set(CounterType.UNHANDLED_EVENTS, counters.unhandledEvents());
        for (final PoolCounters pool : counters.pools())
        {
            final CounterRows<String>.Row row = pools.row(pool.name(), "pool=" + pool.name());
            row.set(CounterType.POOL_THREADS, pool.threads());
            row.set(CounterType.POOL_ACTIVATIONS, pool.activations());
            row.set(CounterType.POOL_EVENTS_HANDLED, pool.eventsHandled());
            row.set(CounterType.POOL_BUSY_NS, pool.busyNs());
            row.set(CounterType.POOL_IDLE_NS, pool.idleNs());
            row.set(CounterType.POOL_LATE_WAKEUPS, pool.lateWakeups());
            row.set(CounterType.POOL_STEALS, pool.steals());
        }
    }

    private void publishMemoryQuota(final MemoryQuotaCounters counters)
    {
        set(CounterType.MEMQUOTA_USED_BYTES, counters.usedBytes());
        // A node without a quota runs its tracker with no limit (Long.MAX_VALUE): the counters say 0, "disabled".
        final boolean disabled = counters.maxBytes() == Long.MAX_VALUE;
        set(CounterType.MEMQUOTA_MAX_BYTES, disabled ? 0 : counters.maxBytes());
        set(CounterType.MEMQUOTA_LOW_WATER_BYTES, disabled ? 0 : counters.lowWaterBytes());
        set(CounterType.MEMQUOTA_RECLAMATIONS, counters.reclamations());
        set(CounterType.MEMQUOTA_COLLAPSED, counters.participantsCollapsed());
        set(CounterType.MEMQUOTA_BYTES_RECLAIMED, counters.bytesReclaimed());
        set(CounterType.MEMQUOTA_UNRESPONSIVE, counters.unresponsive());
        set(CounterType.MEMQUOTA_REFUSED_CLAIMS, counters.refusedClaims());
        set(CounterType.MEMQUOTA_ACCOUNTS, counters.accounts());
        set(CounterType.MEMQUOTA_RECLAIM_EPISODES, counters.reclaimEpisodes());
        set(CounterType.MEMQUOTA_WORST_RECLAIM_NS, counters.worstReclaimLatencyNs());
    }

    private void publishFlow(final FlowControl flow)
    {
        set(CounterType.CREDIT_ACCOUNTS_OPENED, flow.accountsOpened());
        set(CounterType.CREDIT_ACCOUNTS_OPEN, flow.openAccounts());
        set(CounterType.CREDIT_CLEARED_NOTICES, flow.clearedNotices());
        set(CounterType.CREDIT_SHADOWS, flow.shadowCount());
        set(CounterType.CREDIT_SHADOWS_REFUSED, flow.shadowsRefused());
        set(CounterType.CREDIT_SHADOWS_FORGOTTEN, flow.shadowsForgotten());
        set(CounterType.CREDIT_UNKNOWN_ACCOUNTS, flow.unknownAccounts());
        set(CounterType.CREDIT_WRITTEN_OFF, flow.writtenOff());
        set(CounterType.CREDIT_SHADOW_DEBT_DROPPED, flow.shadowDebtDropped());
        set(CounterType.CREDIT_NODE_ACCOUNT_DEBT, flow.isEnabled() ? flow.nodeAccount().debt() : 0);
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
                counter = allocate(CounterType.FRAMES_REJECTED, "reason=" + reason.name().toLowerCase(Locale.ROOT));
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
        set(CounterType.UNAUTHENTICATED_FRAMES, counts.unauthenticatedFrames());
        set(CounterType.TYPE_CONFLICTS, counts.typeConflicts());
        set(CounterType.UNKNOWN_TYPE_EVENTS, counts.unknownTypeEvents());
        set(CounterType.SUBSCRIPTIONS_REFUSED, counts.subscriptionsRefused());
        set(CounterType.FOREIGN_ACCOUNT_ARRIVALS, counts.foreignAccountArrivals());
        set(CounterType.CLAMPED_COSTS, counts.clampedCosts());
        set(CounterType.CHUNK_FRAMES_DROPPED, counts.chunkFramesDropped());
        set(CounterType.DIRECTORY_UPDATES_DROPPED, counts.directoryUpdatesDropped());
        set(CounterType.DIRECTORY_ENTRIES_REFUSED, counts.directoryEntriesRefused());
        set(CounterType.STREAMS_STALLED, counts.streamsStalled());
        set(CounterType.PUBLICATIONS_RENEWED, counts.publicationsRenewed());
        set(CounterType.LARGEST_EVENT_BYTES, interconnect.largestEventBytes());
        set(CounterType.HANDSHAKE_STEPS_DEFERRED, counts.handshakeStepsDeferred());
        publishPeers(peerList);
    }

    /**
     * Says whether the node is ready (running, a session with every peer) and, if not, why, in the file's header and,
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

    private void publishPeers(final List<PeerCounters> list)
    {
        for (final PeerCounters peer : list)
        {
            final CounterRows<Integer>.Row row = peers.row(peer.nodeId(), "peer=" + peer.nodeId());
            row.set(CounterType.PEER_CONNECTED, peer.connected() ? 1 : 0);
            row.set(CounterType.PEER_INCARNATION, peer.incarnation());
            row.set(CounterType.PEER_EVENTS_OUT, peer.eventsOut());
            row.set(CounterType.PEER_BYTES_OUT, peer.bytesOut());
            row.set(CounterType.PEER_EVENTS_IN, peer.eventsIn());
            row.set(CounterType.PEER_BYTES_IN, peer.bytesIn());
            row.set(CounterType.PEER_BACK_PRESSURED, peer.backPressured());
            row.set(CounterType.PEER_QUEUE_DEPTH, peer.queueDepth());
            row.set(CounterType.PEER_SESSIONS_UP, peer.sessionsUp());
            row.set(CounterType.PEER_SESSIONS_DOWN, peer.sessionsDown());
            row.set(CounterType.PEER_REJECTED_FRAMES, peer.rejectedFrames());
            row.set(CounterType.PEER_HANDSHAKES_REFUSED, peer.handshakesRefused());
            row.set(CounterType.PEER_SHED, peer.shed());
            row.set(CounterType.PEER_REFUSED_DOWN, peer.refusedDown());
            row.set(CounterType.PEER_LOST_UNSURE, peer.lostUnsure());
            row.set(CounterType.PEER_LOST_QUEUED, peer.lostQueued());
            row.set(CounterType.PEER_RTT_LAST_NS, peer.rttLastNs());
            row.set(CounterType.PEER_RTT_SMOOTHED_NS, peer.rttSmoothedNs());
            row.set(CounterType.PEER_RTT_MIN_NS, peer.rttMinNs());
            row.set(CounterType.PEER_SUBSCRIBERS, peer.subscribers());
        }
    }

    private void publishScheduler(final SchedulerCounters scheduler, final List<PeerCounters> peerList)
    {
        for (final SchedulerCounters.Counter counter : SchedulerCounters.Counter.values())
        {
            set(CounterType.valueOf("SCHEDULER_" + counter.name()), scheduler.get(counter));
        }
        final Map<Integer, Long> inFlight = scheduler.inFlightByPeer();
        for (final PeerCounters peer : peerList)
        {
            peers.row(peer.nodeId(), "peer=" + peer.nodeId())
                .set(CounterType.PEER_SCHEDULED_IN_FLIGHT, inFlight.getOrDefault(peer.nodeId(), 0L));
        }
    }

    private void publishClients(final ClientIngress ingress)
    {
        set(CounterType.CLIENT_SESSIONS_OPEN, ingress.openSessions());
        set(CounterType.CLIENT_ASKS_PENDING, ingress.pendingAsks());
        for (final ClientCounter counter : ClientCounter.values())
        {
            AtomicCounter published = clients.get(counter);
            if (published == null)
            {
                final int typeId = CounterType.clientTypeId(counter);
                published = allocate(typeId, CounterType.metricName(typeId), "");
                if (published == null)
                {
                    continue;
                }
                clients.put(counter, published);
            }
            published.setRelease(ingress.count(counter));
        }
    }

    private void set(final CounterType type, final long value)
    {
        fixed.set(type, value);
    }

    private AtomicCounter allocate(final CounterType type, final String labels)
    {
        return allocate(type.id(), type.metricName(), labels);
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
