package io.troupe.broker;

import io.troupe.interconnect.TestCluster;
import io.troupe.serialization.EventCodecRegistry;
import io.troupe.testing.Await;
import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.Envelope;
import io.troupe.actor.ServiceId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Brokers and regulators on node 2, used from node 1 by their service ids over real Aeron on 127.0.0.1: every
 * broker event crosses the wire through {@link BrokerCodecs}.
 */
@Timeout(60)
class RemoteBrokerTest
{
    /** How long to wait for what should happen (a session, an answer): never reached on a slow machine. */
    private static final Duration WAIT = Await.DEFAULT_TIMEOUT;
    private static final long WAIT_S = WAIT.toSeconds();
    private TestCluster nodes;
    private ActorSystem one;
    private ActorSystem two;

    /** Runs in a test actor, with its context: how a test makes an actor call the broker API. */
    private record Run(Consumer<ActorContext> action)
    {
    }

    @BeforeEach
    void start()
    {
        nodes = TestCluster.of(2);
        nodes.codecs = BrokerCodecs.register(EventCodecRegistry.builder().withTroupeCodecs()).build();
        nodes.startAll().awaitConnected(WAIT);
        one = nodes.node(1).system;
        two = nodes.node(2).system;
    }

    @AfterEach
    void stop()
    {
        try
        {
            assertThat(nodes.handlerFailures()).as("exceptions thrown by handlers").isZero();
        }
        finally
        {
            nodes.close();
        }
    }

    /** An actor that runs what it is sent in a {@link Run} and records every other envelope it receives. */
    private static ActorId requester(final ActorSystem system, final BlockingQueue<Envelope> log)
    {
        return system.register((ctx, envelope) ->
        {
            if (envelope.event() instanceof Run run)
            {
                run.action().accept(ctx);
            }
            else
            {
                log.add(envelope);
            }
        });
    }

    /** Has an actor ask a broker, with its reference times 10 as the cookie. */
    private static Run ask(final ActorId broker, final Side side, final long ref, final Object counterparty)
    {
        return new Run(ctx -> Brokers.ask(ctx, broker, side, ref, counterparty, ref * 10));
    }

    private static Envelope next(final BlockingQueue<Envelope> log)
    {
        return Await.next(log, WAIT);
    }

    private static void assertGo(final Envelope envelope, final long ref, final Object counterparty)
    {
        assertThat(envelope.type()).isEqualTo(Go.TYPE);
        assertThat(envelope.cookie()).isEqualTo(ref * 10);
        final Go go = (Go)envelope.event();
        assertThat(go.ref()).isEqualTo(ref);
        assertThat(go.counterparty()).isEqualTo(counterparty);
    }

    private static void awaitLengths(final ActorSystem from, final ActorId broker, final int ask, final int askR)
    {
        Await.until(() -> Brokers.lengths(from, broker, WAIT).join().equals(new Lengths(ask, askR)), WAIT,
            "lengths " + ask + "/" + askR);
    }

    @Test
    void clientsOnNodeOneAreMatchedWithAWorkerOnNodeTwoThroughItsServiceId() throws Exception
    {
        final ServiceId jobs = ServiceId.of(2, "jobs");
        Brokers.start(two, jobs, BrokerSpec.of(DropQueueSpec.fifo(100)));
        final BlockingQueue<Envelope> atWorker = new LinkedBlockingQueue<>();
        final ActorId worker = requester(two, atWorker);

        // a plain thread on node 1 offers a String; the worker offers its own id (null)
        two.send(worker, ask(jobs, Side.ASK_R, 1, null));
        awaitLengths(one, jobs, 0, 1);
        final Object answer = Brokers.ask(one, jobs, Side.ASK, "client-1", WAIT).get(WAIT_S, TimeUnit.SECONDS);
        assertThat(answer).isInstanceOf(Go.class);
        assertThat(((Go)answer).counterparty()).as("the worker's id, across the wire").isEqualTo(worker);
        assertGo(next(atWorker), 1, "client-1");

        // an actor on node 1 offers its own id (null); the worker offers a String
        final BlockingQueue<Envelope> atClient = new LinkedBlockingQueue<>();
        final ActorId client = requester(one, atClient);
        two.send(worker, ask(jobs, Side.ASK_R, 2, "worker-2"));
        awaitLengths(one, jobs, 0, 1);
        one.send(client, ask(jobs, Side.ASK, 5, null));
        final Envelope clientGo = next(atClient);
        assertThat(clientGo.isSerialized()).isTrue();
        assertGo(clientGo, 5, "worker-2");
        assertGo(next(atWorker), 2, client);

        // the other kinds: an Integer from node 2, a byte[] and a Long from node 1 (the client queues first)
        one.send(client, ask(jobs, Side.ASK, 6, new byte[] {1, 2, 3}));
        awaitLengths(one, jobs, 1, 0);
        two.send(worker, ask(jobs, Side.ASK_R, 3, Integer.MIN_VALUE));
        assertGo(next(atClient), 6, Integer.MIN_VALUE);
        final Go workerGo = (Go)next(atWorker).event();
        assertThat((byte[])workerGo.counterparty()).containsExactly(1, 2, 3);
        assertThat(workerGo.relativeTimeNs()).as("the client asked first, seen from the worker").isNegative();
        two.send(worker, ask(jobs, Side.ASK_R, 4, null));
        awaitLengths(one, jobs, 0, 1);
        one.send(client, ask(jobs, Side.ASK, 7, Long.MAX_VALUE));
        assertGo(next(atClient), 7, worker);
        assertGo(next(atWorker), 4, Long.MAX_VALUE);

        // nobody waiting: a non-blocking ask is dropped at once; a queued one is cancelled
        final Object dropped = Brokers.askNow(one, jobs, Side.ASK, "impatient", WAIT).get(WAIT_S, TimeUnit.SECONDS);
        assertThat(dropped).isInstanceOf(Drop.class);
        one.send(client, new Run(ctx ->
        {
            Brokers.ask(ctx, jobs, Side.ASK, 8, null, 80);
            Brokers.cancel(ctx, jobs, Side.ASK, 8);
        }));
        final Envelope cancelled = next(atClient);
        assertThat(cancelled.type()).isEqualTo(Cancelled.TYPE);
        assertThat(cancelled.event()).isEqualTo(new Cancelled(8, true));
        awaitLengths(one, jobs, 0, 0);
        assertThat(atClient.poll(100, TimeUnit.MILLISECONDS)).as("nothing for the cancelled request").isNull();

        // a counterparty that cannot cross fails at send, on the sending thread
        assertThatThrownBy(() -> Brokers.ask(one, jobs, Side.ASK, UUID.randomUUID(), WAIT))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("java.util.UUID")
            .hasMessageContaining("null, ActorId (ServiceId too), String, Long, Integer, byte[]");
        assertThat(Brokers.lengths(one, jobs, WAIT).get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(new Lengths(0, 0));
        assertThat(Brokers.stats(one, jobs, WAIT).get(WAIT_S, TimeUnit.SECONDS))
            .as("4 matches, the non-blocking drop, the cancel").isEqualTo(new BrokerStats(4, 1, 4, 0, 1, 0, 0, 0, 0));
    }

    @Test
    void anActorOnNodeOneHearsTheAlarmsOfABrokerOnNodeTwo() throws Exception
    {
        final ServiceId busy = ServiceId.of(2, "busy");
        final ActorId broker = Brokers.start(two, busy, new BrokerSpec(DropQueueSpec.fifo(100), DropQueueSpec.fifo(100),
            List.of(OverloadMeterSpec.of(Duration.ofNanos(1), Duration.ofMillis(20)))));
        final BlockingQueue<Envelope> alarms = new LinkedBlockingQueue<>();
        final ActorId subscriber = requester(one, alarms);
        one.send(subscriber,
            new Run(ctx -> ctx.send(busy, new AlarmSubscription(true), AlarmSubscription.TYPE, 0, 0L)));
        // requests from node 2 itself, each of which waited more than 1 ns in the broker's mailbox: overloaded
        final long until = System.nanoTime() + WAIT.toNanos();
        Envelope alarm = null;
        while (alarm == null && System.nanoTime() - until < 0)
        {
            Brokers.askNow(two, broker, Side.ASK, null, WAIT);
            alarm = alarms.poll(1, TimeUnit.MILLISECONDS);
        }
        assertThat(alarm).as("an alarm in time").isNotNull();
        assertThat(alarm.type()).isEqualTo(BrokerAlarm.TYPE);
        assertThat(alarm.event()).isEqualTo(new BrokerAlarm(broker, "overload", true));
    }

    @Test
    void aRegulatorOnNodeTwoLetsNodeOneProceedAndReleasesTheSlotsOfNodeOneWhenItStops() throws Exception
    {
        final ServiceId gate = ServiceId.of(2, "gate");
        final ActorId regulator = Regulators.start(two, gate,
            new RegulatorSpec(DropQueueSpec.fifo(100), new OpenValveSpec(1), List.of()));
        final BlockingQueue<Envelope> atHolder = new LinkedBlockingQueue<>();
        final ActorId holder = requester(one, atHolder);

        // an actor on node 1 takes the one slot, and keeps it
        one.send(holder, new Run(ctx -> Regulators.ask(ctx, gate, 1, 10)));
        assertGo(next(atHolder), 1, regulator);
        one.send(holder, new Run(ctx -> Regulators.keep(ctx, gate, 1, 10)));
        assertGo(next(atHolder), 1, regulator);

        // a plain thread on node 1 waits for it; a non-blocking ask is dropped meanwhile
        final CompletableFuture<Object> waiting = Regulators.ask(one, gate, WAIT);
        awaitLengths(one, gate, 1, 1);
        assertThat(Brokers.askNow(one, gate, Side.ASK, null, WAIT).get(WAIT_S, TimeUnit.SECONDS))
            .isInstanceOf(Drop.class);
        assertThat(waiting).isNotDone();

        // done from the holder: the waiting request proceeds
        one.send(holder, new Run(ctx -> Regulators.done(ctx, gate, 1)));
        assertThat(waiting.get(WAIT_S, TimeUnit.SECONDS)).isInstanceOf(Go.class);
        awaitLengths(one, gate, 0, 1);

        // a request of node 2 waits for the slot node 1 holds; node 1 stops without giving it back
        final CompletableFuture<Object> local = Regulators.ask(two, gate, WAIT);
        awaitLengths(two, gate, 1, 1);
        nodes.stop(nodes.node(1));
        final Object go = local.get(WAIT_S, TimeUnit.SECONDS);
        assertThat(go).as("the slot of the stopped node, released").isInstanceOf(Go.class);
        assertThat(((Go)go).counterparty()).isEqualTo(regulator);
        assertThat(nodes.node(2).interconnect.isConnected(1)).isFalse();
        awaitLengths(two, gate, 0, 1);
    }

    @Test
    void aGoThatCannotCrossBecomesADropAndTheRequestsOfAStoppedNodeAreForgotten() throws Exception
    {
        final ServiceId jobs = ServiceId.of(2, "jobs2");
        final ActorId broker = Brokers.start(two, jobs, BrokerSpec.of(DropQueueSpec.fifo(100)));

        // node 1 waits; a worker on node 2 offers a value with no wire form: node 1 gets Drop, not silence
        final CompletableFuture<Object> client = Brokers.ask(one, jobs, Side.ASK, null, WAIT);
        awaitLengths(two, broker, 1, 0);
        final Object worker =
            Brokers.ask(two, broker, Side.ASK_R, UUID.randomUUID(), WAIT).get(WAIT_S, TimeUnit.SECONDS);
        assertThat(worker).isInstanceOf(Go.class);
        assertThat(client.get(WAIT_S, TimeUnit.SECONDS)).isInstanceOf(Drop.class);

        // node 1 queues a request and stops: node 2 forgets it, so no worker is matched with a node that is gone
        Brokers.ask(one, jobs, Side.ASK, null, WAIT);
        awaitLengths(two, broker, 1, 0);
        nodes.stop(nodes.node(1));
        awaitLengths(two, broker, 0, 0);
        final BrokerStats stats = Brokers.stats(two, broker, WAIT).get(WAIT_S, TimeUnit.SECONDS);
        assertThat(stats.unencodable()).isEqualTo(1);
        assertThat(stats.purged()).isEqualTo(1);
    }
}
