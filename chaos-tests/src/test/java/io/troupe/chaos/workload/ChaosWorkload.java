package io.troupe.chaos.workload;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import io.troupe.actor.EventTypes;
import io.troupe.actor.NodeConnected;
import io.troupe.actor.NodeDisconnected;
import io.troupe.actor.ServiceId;
import io.troupe.actor.Undelivered;
import io.troupe.interconnect.PeerAddress;
import io.troupe.interconnect.PeerCounters;
import io.troupe.membership.MemberDowned;
import io.troupe.membership.MemberLeft;
import io.troupe.membership.MemberUp;
import io.troupe.membership.table.Member;
import io.troupe.node.Node;
import io.troupe.node.NodeSetup;
import io.troupe.registry.ServiceDown;
import io.troupe.registry.ServiceInstance;
import io.troupe.registry.ServiceUp;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.RecordCodec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * The chaos suites' test service, run in each node container as an application ({@code troupe.application.setup},
 * from a jar in {@code troupe.application.lib-dir}; never part of the node itself). Every node sends tracked
 * {@link Tick}s to the {@value #RECEIVER} service of every peer at a steady rate and writes a ledger under
 * {@code CHAOS_LEDGER_DIR} (default {@code /chaos}):
 * <ul>
 *   <li>{@code tx-<node>-<incarnation>.csv}: {@code S,ms,recipient,seq,recipientIncarnation} per event sent,
 *       {@code U,ms,recipient,seq,reason,unsure} per {@code Undelivered}, {@code C,ms,peer,incarnation} and
 *       {@code X,ms,peer} when a peer connects and disconnects, {@code SU,ms,node,incarnation} and
 *       {@code SD,ms,node,incarnation} when a node's {@value #RECEIVER} comes into and goes from this node's service
 *       directory, {@code E,ms,reason} when sending ends; with a membership, {@code MU,ms,node,incarnation,epoch},
 *       {@code ML,...} and {@code MD,...} when a member is up, left or downed in this node's view, and
 *       {@code VR,ms,role} when this node's voter's role changes (Aeron Cluster's {@code Cluster.Role}; {@code null}
 *       for none), seen at the next tick;</li>
 *   <li>{@code rx-<node>-<incarnation>.csv}: {@code D,ms,sender,senderIncarnation,seq,expectedIncarnation} per event
 *       delivered.</li>
 * </ul>
 * The peers are the configured ones, or with a membership the members (each one from its {@code MemberUp} on).
 * Besides the ticks to the service's name, every tenth period sends one tick to the receiver's actor id as this node
 * first saw it in its directory (the peer's first incarnation it knew), for as long as it runs: its sequence has
 * {@link #OLD_ID_SEQ} set (a stream of its own for the ledger's order check) and it carries that incarnation, so
 * after the peer restarts, such a tick must come back {@code Undelivered(ACTOR_UNKNOWN)} and never reach the new
 * receiver (the ledger would show it delivered to another incarnation than it was sent to).
 * Sending is bounded: {@code CHAOS_RATE} events per second per peer (default 200, in steps of 100; 0 sends nothing),
 * for at most {@code CHAOS_SECONDS} (default 600), and it stops as soon as a file named {@code stop} appears in the
 * ledger directory.
 * <p>
 * Every node also has a {@value #ECHO} service, which answers an ask with its request ({@link FloodEvent}), and a
 * {@value FloodProducer#SINK} service, which counts a flood's events ({@link FloodSink}, {@code frx-<node>-<inc>.csv}).
 * With {@code CHAOS_FLOOD_TO=<node>} the node floods that node's sink through a credit account
 * ({@link FloodProducer}, {@code ftx-<node>-<inc>.csv}), bounded in time and stopped like the ticks.
 */
public final class ChaosWorkload implements NodeSetup
{
    /** The receiving service's name on every node. */
    public static final String RECEIVER = "chaos-rx";
    /** A service on every node that answers an ask with its request. */
    public static final String ECHO = "chaos-echo";
    /** The ticks' type id. */
    public static final int TICK_TYPE = EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 77);
    static final EventCodec<Tick> TICK_CODEC = RecordCodec.of(TICK_TYPE, "chaos.Tick", Tick.class,
        (out, tick) -> out.writeInt(tick.senderNode()).writeLong(tick.senderIncarnation()).writeLong(tick.seq())
            .writeLong(tick.receiverIncarnation()),
        in -> new Tick(in.readInt(), in.readLong(), in.readLong(), in.readLong()));
    private static final Duration PERIOD = Duration.ofMillis(10);
    /** The bit that marks a tick sent to a receiver's actor id of the peer's first known incarnation. */
    public static final long OLD_ID_SEQ = 1L << 62;
    /** Every how many periods a tick goes to each receiver's first known actor id. */
    private static final int OLD_ID_EVERY = 10;
    /** The file the host writes in the ledger directory once the rules through the relay are in place. */
    public static final String RELAY_RULES_FILE = "relay-rules";

    /** How long the workload waits, before the node starts, for the host's rules that route through the relay. */
    private static final Duration RELAY_RULES_WAIT = Duration.ofSeconds(60);

    /**
     * Makes the setup ({@code troupe.application.setup} names this class), before the node starts. With
     * {@code CHAOS_RELAY} ({@code port=peerHost:peerPort,...}) and {@code CHAOS_RELAY_HOST} (the node's own address)
     * it starts the {@link DelayRelay} and waits until the host has installed the rules that send the node's UDP to
     * its peers through it (the host writes {@value #RELAY_RULES_FILE} in the ledger directory), so that not one of
     * the node's packets passes by the relay.
     */
    public ChaosWorkload()
    {
        final String relay = env("CHAOS_RELAY", "");
        if (relay.isEmpty())
        {
            return;
        }
        final Path dir = Path.of(env("CHAOS_LEDGER_DIR", "/chaos"));
        new DelayRelay(env("CHAOS_RELAY_HOST", "0.0.0.0"), DelayRelay.routes(relay), dir.resolve("delay"),
            dir.resolve("relay.txt")).start();
        final long deadline = System.nanoTime() + RELAY_RULES_WAIT.toNanos();
        while (!Files.exists(dir.resolve(RELAY_RULES_FILE)))
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new IllegalStateException("chaos workload: no " + dir.resolve(RELAY_RULES_FILE) + " after " +
                    RELAY_RULES_WAIT.toSeconds() + " s: the host did not route this node's UDP through the relay");
            }
            LockSupport.parkNanos(10_000_000L);
        }
    }

    @Override
    public List<EventCodec<?>> codecs()
    {
        return List.of(TICK_CODEC, FloodEvent.CODEC);
    }

    @Override
    public void setup(final Node node)
    {
        final Path dir = Path.of(env("CHAOS_LEDGER_DIR", "/chaos"));
        final int rate = Integer.parseInt(env("CHAOS_RATE", "200"));
        final long seconds = Long.parseLong(env("CHAOS_SECONDS", "600"));
        final long incarnation = node.interconnect().incarnation();
        final LedgerFile received = new LedgerFile(dir.resolve("rx-" + node.nodeId() + "-" + incarnation + ".csv"));
        final LedgerFile sent = new LedgerFile(dir.resolve("tx-" + node.nodeId() + "-" + incarnation + ".csv"));
        // in the service directory, which also makes ServiceId(node, name) reach them
        node.registry().register(ServiceId.of(0, RECEIVER), node.system().register(
            (ctx, envelope) ->
            {
                if (envelope.event() instanceof Tick tick)
                {
                    received.line("D", tick.senderNode(), tick.senderIncarnation(), tick.seq(),
                        tick.receiverIncarnation());
                    received.flush();
                }
            }));
        // every node: the flood's sink and an echo a client asks
        final FloodSink sink =
            new FloodSink(new LedgerFile(dir.resolve("frx-" + node.nodeId() + "-" + incarnation + ".csv")));
        final ActorId sinkId = node.system().register(sink);
        node.registry().register(ServiceId.of(0, FloodProducer.SINK), sinkId);
        node.system().send(sinkId, FloodSink.START);
        node.registry().register(ServiceId.of(0, ECHO), node.system().register(
            (ctx, envelope) -> ctx.reply(envelope.event())));
        final String floodTo = env("CHAOS_FLOOD_TO", "");
        if (!floodTo.isEmpty())
        {
            final FloodProducer producer = new FloodProducer(node, Integer.parseInt(floodTo),
                Integer.parseInt(env("CHAOS_FLOOD_BATCH", "100")), Long.parseLong(env("CHAOS_FLOOD_THRESHOLD", "2000")),
                new LedgerFile(dir.resolve("ftx-" + node.nodeId() + "-" + incarnation + ".csv")), dir.resolve("stop"),
                System.nanoTime() + Duration.ofSeconds(seconds).toNanos());
            node.system().send(node.system().register(producer), FloodProducer.START);
        }
        final Sender sender = new Sender(node, sent, dir.resolve("stop"), rate <= 0 ? 0 : Math.max(1, rate / 100),
            System.nanoTime() + Duration.ofSeconds(seconds).toNanos());
        node.system().send(node.system().register(sender), Sender.START);
    }

    private static String env(final String name, final String fallback)
    {
        final String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    /** Sends every peer a few ticks each period, and writes what becomes of them. */
    private static final class Sender implements Behavior
    {
        static final Object START = "start";
        static final Object TICK = "tick";

        private final Node node;
        private final LedgerFile ledger;
        private final Path stopFile;
        private final int perPeriod;
        private final long endNs;
        private final Map<Integer, Long> nextSeq = new HashMap<>();
        /** Per peer: the receiver's actor id of the first incarnation this node saw, and that incarnation. */
        private final Map<Integer, ServiceInstance> firstReceiver = new HashMap<>();
        private final Map<Integer, Long> nextOldIdSeq = new HashMap<>();
        private long periods;
        private boolean ended;
        private String voterRole = "";

        Sender(final Node node, final LedgerFile ledger, final Path stopFile, final int perPeriod, final long endNs)
        {
            this.node = node;
            this.ledger = ledger;
            this.stopFile = stopFile;
            this.perPeriod = perPeriod;
            this.endNs = endNs;
        }

        @Override
        public void receive(final ActorContext ctx, final Envelope envelope)
        {
            final Object event = envelope.event();
            if (event == START)
            {
                for (final PeerAddress peer : node.config().interconnectConfig().peers())
                {
                    nextSeq.put(peer.nodeId(), 1L);
                    ctx.subscribeToNode(peer.nodeId());
                }
                if (node.membership() != null)
                {
                    node.membership().subscribe(ctx.self()); // every member up now, and each change from now on
                }
                node.registry().subscribe(ServiceId.of(0, RECEIVER), ctx.self());
                ctx.schedule(PERIOD, TICK);
            }
            else if (event == TICK)
            {
                tick(ctx);
            }
            else if (event instanceof Undelivered undelivered && undelivered.type() == TICK_TYPE)
            {
                ledger.line("U", undelivered.recipient().nodeId(), undelivered.cookie(), undelivered.reason(),
                    undelivered.unsure());
            }
            else if (event instanceof NodeConnected connected)
            {
                ledger.line("C", connected.nodeId(), incarnationOf(connected.nodeId()));
            }
            else if (event instanceof NodeDisconnected disconnected)
            {
                ledger.line("X", disconnected.nodeId());
            }
            else if (event instanceof MemberUp up)
            {
                final Member member = up.member();
                if (member.nodeId() != node.nodeId())
                {
                    nextSeq.putIfAbsent(member.nodeId(), 1L);
                    ctx.subscribeToNode(member.nodeId()); // again for a new incarnation: a downed one was removed
                }
                member("MU", member);
            }
            else if (event instanceof MemberLeft left)
            {
                member("ML", left.member());
            }
            else if (event instanceof MemberDowned downed)
            {
                member("MD", downed.member());
            }
            else if (event instanceof ServiceUp up)
            {
                ledger.line("SU", up.instance().nodeId(), up.instance().incarnation());
                if (up.instance().nodeId() != node.nodeId())
                {
                    firstReceiver.putIfAbsent(up.instance().nodeId(), up.instance());
                }
            }
            else if (event instanceof ServiceDown down)
            {
                ledger.line("SD", down.instance().nodeId(), down.instance().incarnation());
            }
            ledger.flush();
        }

        private void member(final String kind, final Member member)
        {
            ledger.line(kind, member.nodeId(), member.incarnation(), member.sinceEpoch());
        }

        private void tick(final ActorContext ctx)
        {
            if (ended)
            {
                return;
            }
            final String end = WorkloadEnd.reason(endNs, stopFile);
            if (end != null)
            {
                ended = true;
                ledger.line("E", end);
                return;
            }
            if (node.membership() != null)
            {
                final String role = String.valueOf(node.membership().role());
                if (!role.equals(voterRole))
                {
                    voterRole = role;
                    ledger.line("VR", role);
                }
            }
            final long myIncarnation = node.interconnect().incarnation();
            for (final PeerCounters peer : node.interconnect().peerCounters())
            {
                final long known = peer.connected() ? peer.incarnation() : 0;
                for (int i = 0; i < perPeriod; i++)
                {
                    final long seq = nextSeq.merge(peer.nodeId(), 1L, Long::sum) - 1;
                    ledger.line("S", peer.nodeId(), seq, known);
                    ctx.send(ServiceId.of(peer.nodeId(), RECEIVER), new Tick(node.nodeId(), myIncarnation, seq, known),
                        TICK_TYPE, Envelope.FLAG_TRACK_DELIVERY, seq);
                }
            }
            if (++periods % OLD_ID_EVERY == 0)
            {
                sendToFirstReceivers(ctx, myIncarnation);
            }
            ctx.schedule(PERIOD, TICK);
        }

        private void sendToFirstReceivers(final ActorContext ctx, final long myIncarnation)
        {
            for (final ServiceInstance first : firstReceiver.values())
            {
                final long seq = OLD_ID_SEQ | (nextOldIdSeq.merge(first.nodeId(), 1L, Long::sum) - 1);
                ledger.line("S", first.nodeId(), seq, first.incarnation());
                ctx.send(first.actor(), new Tick(node.nodeId(), myIncarnation, seq, first.incarnation()), TICK_TYPE,
                    Envelope.FLAG_TRACK_DELIVERY, seq);
            }
        }

        private long incarnationOf(final int nodeId)
        {
            for (final PeerCounters peer : node.interconnect().peerCounters())
            {
                if (peer.nodeId() == nodeId)
                {
                    return peer.incarnation();
                }
            }
            return 0;
        }
    }
}
