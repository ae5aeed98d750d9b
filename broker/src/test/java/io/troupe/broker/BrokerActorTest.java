package io.troupe.broker;

import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.Envelope;
import io.troupe.actor.PoolConfig;
import io.troupe.actor.ServiceId;
import io.troupe.testing.Await;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The broker actor in a real actor system: every call is a message. */
@Timeout(60)
class BrokerActorTest
{
    /** How long to wait for what should happen (an answer, a queue length): never reached on a slow machine. */
    private static final Duration WAIT = Await.DEFAULT_TIMEOUT;
    private static final long WAIT_S = WAIT.toSeconds();
    private ActorSystem system;

    @BeforeEach
    void start()
    {
        system = ActorSystem.start(new ActorSystemConfig().nodeId(1).pool(PoolConfig.named("default").threads(2)));
    }

    @AfterEach
    void stop()
    {
        system.close();
    }

    @Test
    void aClientAndAWorkerAskingFromPlainThreadsAreMatched() throws Exception
    {
        final ActorId broker = Brokers.start(system, BrokerSpec.of(DropQueueSpec.fifo(100)));
        final CompletableFuture<Object> client = Brokers.ask(system, broker, Side.ASK, "client", WAIT);
        awaitLengths(broker, 1, 0);
        final Object worker = Brokers.ask(system, broker, Side.ASK_R, "worker", WAIT).get(WAIT_S, TimeUnit.SECONDS);

        assertThat(worker).isInstanceOf(Go.class);
        assertThat(((Go)worker).counterparty()).isEqualTo("client");
        final Go go = (Go)client.get(WAIT_S, TimeUnit.SECONDS);
        assertThat(go.counterparty()).isEqualTo("worker");
        assertThat(go.sojournTimeNs()).isPositive();
        assertThat(go.relativeTimeNs()).as("the client waited for the worker").isPositive();
    }

    @Test
    void aNonBlockingAskWithNobodyWaitingIsDroppedAtOnce() throws Exception
    {
        final ActorId broker = Brokers.start(system, BrokerSpec.of(DropQueueSpec.fifo(100)));
        assertThat(Brokers.askNow(system, broker, Side.ASK, null, WAIT).get(WAIT_S, TimeUnit.SECONDS))
            .isInstanceOf(Drop.class);
        assertThat(Brokers.lengths(system, broker, WAIT).get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(new Lengths(0, 0));
    }

    @Test
    void anActorAsksAsynchronouslyCancelsAndGetsItsAnswersAsEvents() throws Exception
    {
        final ActorId broker = Brokers.start(system, BrokerSpec.of(DropQueueSpec.fifo(100)));
        final BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
        final ActorId actor = system.register((ctx, envelope) ->
        {
            if ("ask".equals(envelope.event()))
            {
                Brokers.ask(ctx, broker, Side.ASK, 7, null, 70);
                Brokers.ask(ctx, broker, Side.ASK, 8, null, 80);
                Brokers.cancel(ctx, broker, Side.ASK, 8);
            }
            else
            {
                inbox.add(envelope.event());
                inbox.add(envelope.cookie());
            }
        });
        system.send(actor, "ask");
        assertThat(Await.next(inbox)).isEqualTo(new Cancelled(8, true));
        assertThat(Await.next(inbox)).isEqualTo(8L);
        awaitLengths(broker, 1, 0);

        Brokers.ask(system, broker, Side.ASK_R, null, WAIT).get(WAIT_S, TimeUnit.SECONDS);
        final Go go = (Go)Await.next(inbox);
        assertThat(go.ref()).isEqualTo(7);
        assertThat(Await.next(inbox)).as("the ask's cookie").isEqualTo(70L);
        assertThat(inbox.poll(200, TimeUnit.MILLISECONDS)).as("nothing for the cancelled request").isNull();
    }

    @Test
    void cancelledAnswersCarryTheirOwnTypeSoTheyCanCrossNodes() throws Exception
    {
        final ActorId broker = Brokers.start(system, BrokerSpec.of(DropQueueSpec.fifo(100)));
        final ActorId regulator = Regulators.start(system,
            new RegulatorSpec(DropQueueSpec.fifo(100), new OpenValveSpec(0), List.of()));
        final BlockingQueue<Envelope> inbox = new LinkedBlockingQueue<>();
        final ActorId actor = system.register((ctx, envelope) ->
        {
            if ("ask".equals(envelope.event()))
            {
                Brokers.ask(ctx, broker, Side.ASK_R, 1, null, 10);
                Brokers.cancel(ctx, broker, Side.ASK_R, 1);
                Regulators.ask(ctx, regulator, 2, 20);
                Brokers.cancel(ctx, regulator, Side.ASK, 2);
            }
            else
            {
                inbox.add(envelope);
            }
        });
        system.send(actor, "ask");
        // the broker and the regulator answer independently: no order between them is promised
        final Map<Long, Envelope> answers = new TreeMap<>();
        for (int i = 0; i < 2; i++)
        {
            final Envelope answer = Await.next(inbox);
            assertThat(answer).isNotNull();
            answers.put(answer.cookie(), answer);
        }
        assertThat(answers).containsOnlyKeys(1L, 2L);
        for (final Envelope answer : answers.values())
        {
            assertThat(answer.event()).isEqualTo(new Cancelled(answer.cookie(), true));
            assertThat(answer.type()).as("the answer's type, not the request's").isEqualTo(Cancelled.TYPE);
        }
    }

    @Test
    void aBrokerIsReachedByItsServiceId() throws Exception
    {
        final ServiceId service = ServiceId.of(0, "pool");
        Brokers.start(system, service, BrokerSpec.of(DropQueueSpec.fifo(100)));
        final CompletableFuture<Object> worker = Brokers.ask(system, service, Side.ASK_R, "w1", WAIT);
        awaitLengths(service, 0, 1);
        final Go go = (Go)Brokers.ask(system, service, Side.ASK, null, WAIT).get(WAIT_S, TimeUnit.SECONDS);
        assertThat(go.counterparty()).isEqualTo("w1");
        assertThat(worker.get(WAIT_S, TimeUnit.SECONDS)).isInstanceOf(Go.class);
    }

    @Test
    void aTimeoutQueueDropsByTimerEvenWhenNothingElseArrives() throws Exception
    {
        final ActorId broker = Brokers.start(system, BrokerSpec.of(TimeoutQueueSpec.of(Duration.ofMillis(50))));
        final Object answer = Brokers.ask(system, broker, Side.ASK, null, WAIT).get(WAIT_S, TimeUnit.SECONDS);
        assertThat(answer).isInstanceOf(Drop.class);
        assertThat(((Drop)answer).sojournTimeNs()).isGreaterThanOrEqualTo(50_000_000L);
    }

    @Test
    void liveReconfigurationKeepsQueuedRequests() throws Exception
    {
        final ActorId broker = Brokers.start(system, BrokerSpec.of(DropQueueSpec.fifo(100)));
        final List<CompletableFuture<Object>> clients = List.of(
            Brokers.ask(system, broker, Side.ASK, "a", WAIT), Brokers.ask(system, broker, Side.ASK, "b", WAIT));
        awaitLengths(broker, 2, 0);
        Brokers.reconfigure(system, broker, BrokerSpec.of(CodelQueueSpec.defaults()));
        awaitLengths(broker, 2, 0);
        final Go worker = (Go)Brokers.ask(system, broker, Side.ASK_R, null, WAIT).get(WAIT_S, TimeUnit.SECONDS);
        assertThat(worker.counterparty()).as("the oldest queued client, kept across the change").isEqualTo("a");
        assertThat(clients.get(0).get(WAIT_S, TimeUnit.SECONDS)).isInstanceOf(Go.class);
        awaitLengths(broker, 1, 0);
    }

    @Test
    void alarmSubscribersHearTheOverloadMeter() throws Exception
    {
        final ActorId broker = Brokers.start(system, new BrokerSpec(DropQueueSpec.fifo(100), DropQueueSpec.fifo(100),
            List.of(OverloadMeterSpec.of(Duration.ofNanos(1), Duration.ofMillis(20)))));
        final BlockingQueue<Object> alarms = subscribeToAlarms(broker);
        assertThat(loadUntilAnAlarm(broker, alarms)).isEqualTo(new BrokerAlarm(broker, "overload", true));
        final BrokerStats stats = Brokers.stats(system, broker, WAIT).get(WAIT_S, TimeUnit.SECONDS);
        // the load has stopped: if the stats come more than an interval later, the alarm has cleared by itself
        assertThat(stats.alarmChanges()).as("raised, and perhaps cleared again").isBetween(1L, 2L);
        assertThat(stats.askDrops()).as("every non-blocking ask found nobody").isPositive();
        assertThat(stats.askMatches()).isZero();
    }

    @Test
    void anOverloadAlarmRaisedUnderLoadClearsByItselfOnceTheBrokerIsIdle() throws Exception
    {
        final ActorId broker = Brokers.start(system, new BrokerSpec(DropQueueSpec.fifo(100), DropQueueSpec.fifo(100),
            List.of(OverloadMeterSpec.of(Duration.ofNanos(1), Duration.ofMillis(50)))));
        final BlockingQueue<Object> alarms = subscribeToAlarms(broker);
        assertThat(loadUntilAnAlarm(broker, alarms)).isEqualTo(new BrokerAlarm(broker, "overload", true));
        final long idleFrom = System.nanoTime();
        // not one request more: the broker's own timers must clear it, an interval (and a re-check or two) later
        final Object cleared = Await.next(alarms);
        final long tookMs = (System.nanoTime() - idleFrom) / 1_000_000;
        assertThat(cleared).isEqualTo(new BrokerAlarm(broker, "overload", false));
        // how soon exactly (an interval and a re-check or two) is OverloadMeterTest's, on a scripted clock; here, on
        // real timers, only that it comes by itself and is not far off
        assertThat(tookMs).as("cleared within interval + re-checks of going idle (with scheduling slack)")
            .isLessThan(10_000);
        assertThat(Brokers.stats(system, broker, WAIT).get(WAIT_S, TimeUnit.SECONDS).alarmChanges()).isEqualTo(2);
    }

    @Test
    void alarmSubscribersAreBoundedAndOneThatIsGoneIsDroppedAtTheNextAlarm() throws Exception
    {
        final BrokerActor actor = new BrokerActor(new BrokerSpec(DropQueueSpec.fifo(100), DropQueueSpec.fifo(100),
            List.of(OverloadMeterSpec.of(Duration.ofNanos(1), Duration.ofMillis(20)))), SystemNanoClock.INSTANCE);
        final ActorId broker = system.register(actor);
        final ActorId mortal = system.register((ctx, envelope) ->
        {
            if ("subscribe".equals(envelope.event()))
            {
                ctx.send(broker, new AlarmSubscription(true), AlarmSubscription.TYPE, 0, 0L);
            }
            else if ("die".equals(envelope.event()))
            {
                ctx.passAway();
            }
        });
        system.send(mortal, "subscribe");
        Await.until(() -> actor.alarmSubscribers() == 1, WAIT, "subscribed");
        final long alive = system.counters().actorsAlive();
        system.send(mortal, "die");
        Await.equal(() -> system.counters().actorsAlive(), alive - 1, "the subscriber is gone before the alarm");
        // load the broker, a request per poll, until its overload alarm goes off
        Await.until(() ->
        {
            Brokers.askNow(system, broker, Side.ASK, null, WAIT);
            return actor.alarmChanges() > 0;
        }, WAIT, "the overload alarm went off");
        Await.until(() -> actor.alarmSubscribers() == 0, WAIT, "the gone subscriber dropped");

        // at most MAX_ALARM_SUBSCRIBERS at once; one more is refused and counted
        for (int i = 0; i <= BrokerActor.MAX_ALARM_SUBSCRIBERS; i++)
        {
            final ActorId subscriber = system.register((ctx, envelope) -> { });
            ActorSystemSpi.of(system).send(
                new Envelope(broker, subscriber, AlarmSubscription.TYPE, 0, 0L, new AlarmSubscription(true),
                null));
        }
        Await.until(() -> actor.refusedSubscriptions() == 1, WAIT, "the one too many refused");
        assertThat(actor.alarmSubscribers()).isEqualTo(BrokerActor.MAX_ALARM_SUBSCRIBERS);
    }

    @Test
    void aProtectedAskIsShortCircuitedWithoutReachingTheBroker() throws Exception
    {
        final ActorId broker = Brokers.start(system, BrokerSpec.of(DropQueueSpec.fifo(100)));
        final Protection protection = new Protection();
        protection.publish(Side.ASK, 1.0);
        final Object answer =
            Brokers.ask(system, broker, protection, Side.ASK, null, WAIT).get(WAIT_S, TimeUnit.SECONDS);
        assertThat(answer).isInstanceOf(Drop.class);
        assertThat(((Drop)answer).sojournTimeNs()).isZero();
        assertThat(protection.shortCircuited(Side.ASK)).isEqualTo(1);
        awaitLengths(broker, 0, 0);

        protection.publish(Side.ASK, 0.0);
        final CompletableFuture<Object> queued = Brokers.ask(system, broker, protection, Side.ASK, null, WAIT);
        awaitLengths(broker, 1, 0);
        Brokers.ask(system, broker, Side.ASK_R, null, WAIT).get(WAIT_S, TimeUnit.SECONDS);
        assertThat(queued.get(WAIT_S, TimeUnit.SECONDS)).isInstanceOf(Go.class);
    }

    @Test
    void aBalancedAskGoesToOneOfTheBrokersAndTeachesTheBalancer() throws Exception
    {
        final ActorId first = Brokers.start(system, BrokerSpec.of(DropQueueSpec.fifo(100)));
        final ActorId second = Brokers.start(system, BrokerSpec.of(DropQueueSpec.fifo(100)));
        final CompletableFuture<Object> w1 = Brokers.ask(system, first, Side.ASK_R, "w1", WAIT);
        final CompletableFuture<Object> w2 = Brokers.ask(system, second, Side.ASK_R, "w2", WAIT);
        awaitLengths(first, 0, 1);
        awaitLengths(second, 0, 1);
        final SojournBalancer balancer = new SojournBalancer(List.of(first, second));
        final Go go = (Go)Brokers.ask(system, balancer, Side.ASK, null, WAIT).get(WAIT_S, TimeUnit.SECONDS);
        final ActorId chosen = "w1".equals(go.counterparty()) ? first : second;
        assertThat(go.counterparty()).isIn("w1", "w2");
        assertThat(balancer.recentSojournNs(chosen)).isEqualTo(go.sojournTimeNs());
        assertThat((chosen == first ? w1 : w2).get(WAIT_S, TimeUnit.SECONDS)).isInstanceOf(Go.class);
    }

    /** An actor subscribed to the broker's alarms; what it hears goes to the queue. */
    private BlockingQueue<Object> subscribeToAlarms(final ActorId broker)
    {
        final BlockingQueue<Object> alarms = new LinkedBlockingQueue<>();
        final ActorId subscriber = system.register((ctx, envelope) ->
        {
            if ("subscribe".equals(envelope.event()))
            {
                ctx.send(broker, new AlarmSubscription(true), AlarmSubscription.TYPE, 0, 0L);
            }
            else
            {
                alarms.add(envelope.event());
            }
        });
        system.send(subscriber, "subscribe");
        return alarms;
    }

    /**
     * A stream of requests, each of which waited more than 1 ns in the broker's mailbox (overloaded for a 1 ns target),
     * until the first alarm arrives (at most {@link #WAIT}).
     */
    private Object loadUntilAnAlarm(final ActorId broker, final BlockingQueue<Object> alarms) throws Exception
    {
        final long until = System.nanoTime() + WAIT.toNanos();
        Object alarm = null;
        while (alarm == null && System.nanoTime() - until < 0)
        {
            Brokers.askNow(system, broker, Side.ASK, null, WAIT);
            alarm = alarms.poll(1, TimeUnit.MILLISECONDS);
        }
        return alarm;
    }

    @Test
    void aQueuedRequesterThatPassesAwayIsPurgedAndNeverMatched() throws Exception
    {
        final ActorId broker = Brokers.start(system, BrokerSpec.of(DropQueueSpec.fifo(100)));
        final ActorId requester = system.register((ctx, envelope) ->
        {
            if ("ask".equals(envelope.event()))
            {
                Brokers.ask(ctx, broker, Side.ASK, 1, "the dead", 10);
            }
            else if ("die".equals(envelope.event()))
            {
                ctx.passAway();
            }
        });
        system.send(requester, "ask");
        awaitLengths(broker, 1, 0);

        system.send(requester, "die");
        awaitLengths(broker, 0, 0); // its Terminated purged it
        final Object worker = Brokers.askNow(system, broker, Side.ASK_R, "worker", WAIT).get(WAIT_S, TimeUnit.SECONDS);
        assertThat(worker).as("no match with a requester that is gone").isInstanceOf(Drop.class);
        assertThat(Brokers.stats(system, broker, WAIT).get(WAIT_S, TimeUnit.SECONDS).purged()).isEqualTo(1);
    }

    @Test
    void anOutsideAskThatTimedOutTakesItsQueuedRequestWithIt() throws Exception
    {
        final ActorId broker = Brokers.start(system, BrokerSpec.of(DropQueueSpec.fifo(100)));
        final CompletableFuture<Object> impatient = Brokers.ask(system, broker, Side.ASK, "impatient",
            Duration.ofMillis(100));
        assertThat(impatient).failsWithin(WAIT);
        awaitLengths(broker, 0, 0); // its stand-in is gone, and its request with it
        assertThat(Brokers.askNow(system, broker, Side.ASK_R, "worker", WAIT).get(WAIT_S, TimeUnit.SECONDS))
            .isInstanceOf(Drop.class);
    }

    private void awaitLengths(final ActorId broker, final int ask, final int askR)
    {
        Await.until(() -> Brokers.lengths(system, broker, WAIT).join().equals(new Lengths(ask, askR)), WAIT,
            "lengths " + ask + "/" + askR);
    }
}
