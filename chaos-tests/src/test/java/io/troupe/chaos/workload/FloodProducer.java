package io.troupe.chaos.workload;

import io.troupe.actor.ActorContext;
import io.troupe.actor.Behavior;
import io.troupe.actor.CreditAccount;
import io.troupe.actor.Envelope;
import io.troupe.actor.FundsCleared;
import io.troupe.actor.NodeConnected;
import io.troupe.actor.NodeDisconnected;
import io.troupe.actor.ServiceId;
import io.troupe.interconnect.PeerCounters;
import io.troupe.node.Node;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The chaos flood: an ingress that sends one peer's {@value #SINK} service untracked {@link FloodEvent}s as fast as its
 * credit account lets it, {@code CHAOS_FLOOD_BATCH} (default 100) per read and a read per millisecond, each charged
 * to its account at cost 1 ({@code CHAOS_FLOOD_THRESHOLD}, default 2,000). In debt it stops reading until
 * {@code FundsCleared}; while the peer is down it sends nothing, and it resumes when the peer is back. Every 100 ms
 * it writes {@code P,ms,sent,debt,writtenOff,queueDepth,heapAfterGcBytes,waits} to {@code ftx-<node>-<inc>.csv};
 * {@code W,ms,debt} when it stops for debt, {@code R,ms,debt,writtenOff} on {@code FundsCleared}, {@code C,ms,peer}
 * and {@code X,ms,peer} as the peer comes and goes, {@code E,ms,reason} when it ends (as the ticks do).
 */
final class FloodProducer implements Behavior
{
    /** The flood's receiving service on every node. */
    static final String SINK = "chaos-flood";
    static final Object START = "flood-start";
    private static final Object READ = "flood-read";
    private static final Object SAMPLE = "flood-sample";
    private static final Duration READ_PERIOD = Duration.ofMillis(1);
    private static final Duration SAMPLE_PERIOD = Duration.ofMillis(100);

    private final Node node;
    private final int target;
    private final int batch;
    private final CreditAccount account;
    private final LedgerFile log;
    private final Path stopFile;
    private final long endNs;
    private long sent;
    private long waits;
    private boolean connected;
    private boolean reading;
    private boolean ended;

    FloodProducer(final Node node, final int target, final int batch, final long threshold, final LedgerFile log,
        final Path stopFile, final long endNs)
    {
        this.node = node;
        this.target = target;
        this.batch = batch;
        this.account = node.system().flow().openAccount(threshold);
        this.log = log;
        this.stopFile = stopFile;
        this.endNs = endNs;
    }

    @Override
    public void receive(final ActorContext ctx, final Envelope envelope)
    {
        final Object event = envelope.event();
        if (event == START)
        {
            ctx.subscribeToNode(target);
            ctx.schedule(SAMPLE_PERIOD, SAMPLE);
        }
        else if (event == SAMPLE)
        {
            sample();
            ctx.schedule(SAMPLE_PERIOD, SAMPLE);
        }
        else if (event instanceof NodeConnected connectedTo && connectedTo.nodeId() == target)
        {
            connected = true;
            log.line("C", target);
            read(ctx);
        }
        else if (event instanceof NodeDisconnected disconnected && disconnected.nodeId() == target)
        {
            connected = false;
            log.line("X", target);
        }
        else if (event instanceof FundsCleared)
        {
            log.line("R", account.debt(), account.writtenOff());
            read(ctx);
        }
        else if (event == READ)
        {
            reading = false;
            read(ctx);
        }
        log.flush();
    }

    private void read(final ActorContext ctx)
    {
        if (ended || !connected || reading)
        {
            return;
        }
        final String end = WorkloadEnd.reason(endNs, stopFile);
        if (end != null)
        {
            ended = true;
            log.line("E", end);
            return;
        }
        if (!ctx.ensureClearFunds(account))
        {
            waits++;
            log.line("W", account.debt());
            return; // FundsCleared reads again
        }
        final ServiceId sink = ServiceId.of(target, SINK);
        for (int i = 0; i < batch; i++)
        {
            ctx.send(sink, new FloodEvent(++sent), FloodEvent.TYPE, 0, 0L, account, 1);
        }
        reading = true;
        ctx.schedule(READ_PERIOD, READ);
    }

    private void sample()
    {
        int queueDepth = 0;
        for (final PeerCounters peer : node.interconnect().peerCounters())
        {
            if (peer.nodeId() == target)
            {
                queueDepth = peer.queueDepth();
            }
        }
        log.line("P", sent, account.debt(), account.writtenOff(), queueDepth, heapAfterGc(), waits);
    }

    /**
     * Heap in use after each pool's last collection: what the node holds, without the garbage. Before the first
     * collection there is no such figure (a node whose class cache spares it the allocations of loading classes may
     * run a whole scenario without one): then the heap in use, garbage included, which only overstates it.
     */
    private static long heapAfterGc()
    {
        long used = 0;
        for (final MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans())
        {
            final MemoryUsage afterGc = pool.getType() == MemoryType.HEAP ? pool.getCollectionUsage() : null;
            if (afterGc != null)
            {
                used += afterGc.getUsed();
            }
        }
        return used > 0 ? used : ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
