package io.troupe.broker;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.PoolConfig;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seed's dynamic ask (a match at once, or a handle to wait on or cancel) and cancelling from outside an actor, in
 * a real actor system.
 */
@Timeout(60)
class DynamicAskTest
{
    /** How long to wait for what should happen (an answer, a queue length): never reached on a slow machine. */
    private static final Duration WAIT = Await.DEFAULT_TIMEOUT;
    private static final long WAIT_S = WAIT.toSeconds();
    private ActorSystem system;
    private ActorId broker;

    @BeforeEach
    void start()
    {
        system = ActorSystem.start(new ActorSystemConfig().nodeId(1).pool(PoolConfig.named("default").threads(2)));
        broker = Brokers.start(system, BrokerSpec.of(DropQueueSpec.fifo(100)));
    }

    @AfterEach
    void stop()
    {
        system.close();
    }

    private void awaitLengths(final int ask, final int askR)
    {
        Await.until(() -> Brokers.lengths(system, broker, WAIT).join().equals(new Lengths(ask, askR)), WAIT,
            "lengths " + ask + "/" + askR);
    }

    @Test
    void aCounterpartyWaitingMeansAMatchAtOnce() throws Exception
    {
        final CompletableFuture<Object> worker = Brokers.ask(system, broker, Side.ASK_R, "worker", WAIT);
        awaitLengths(0, 1);
        final BrokerAwait client = Brokers.dynamicAsk(system, broker, Side.ASK, "client", WAIT);
        final Object first = client.first().get(WAIT_S, TimeUnit.SECONDS);
        assertThat(first).isInstanceOf(Go.class);
        assertThat(((Go)first).counterparty()).isEqualTo("worker");
        assertThat(client.answer().get(WAIT_S, TimeUnit.SECONDS)).isSameAs(first);
        assertThat(((Go)worker.get(WAIT_S, TimeUnit.SECONDS)).counterparty()).isEqualTo("client");
        assertThat(client.cancel().get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(new Cancelled(client.ref(), false));
    }

    @Test
    void nobodyWaitingMeansQueuedAtOnceAndTheMatchLater() throws Exception
    {
        final BrokerAwait client = Brokers.dynamicAsk(system, broker, Side.ASK, "client", WAIT);
        assertThat(client.first().get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(new Queued(client.ref()));
        assertThat(client.answer()).isNotDone();
        final Object worker = Brokers.ask(system, broker, Side.ASK_R, "worker", WAIT).get(WAIT_S, TimeUnit.SECONDS);
        assertThat(((Go)worker).counterparty()).isEqualTo("client");
        final Go go = (Go)client.answer().get(WAIT_S, TimeUnit.SECONDS);
        assertThat(go.ref()).isEqualTo(client.ref());
        assertThat(go.counterparty()).isEqualTo("worker");
    }

    @Test
    void aPlainThreadCancelsItsQueuedRequestAndNoMatchEverReachesIt() throws Exception
    {
        final BrokerAwait client = Brokers.dynamicAsk(system, broker, Side.ASK, "client", WAIT);
        assertThat(client.first().get(WAIT_S, TimeUnit.SECONDS)).isInstanceOf(Queued.class);
        assertThat(client.cancel().get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(new Cancelled(client.ref(), true));
        assertThat(client.answer().get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(new Cancelled(client.ref(), true));
        awaitLengths(0, 0);
        assertThat(Brokers.askNow(system, broker, Side.ASK_R, null, WAIT).get(WAIT_S, TimeUnit.SECONDS))
            .as("the cancelled client is not there to match").isInstanceOf(Drop.class);
        assertThat(Brokers.stats(system, broker, WAIT).get(WAIT_S, TimeUnit.SECONDS).cancels()).isEqualTo(1);
    }

    @Test
    void theTimeoutCancelsTheRequest() throws Exception
    {
        final BrokerAwait client = Brokers.dynamicAsk(system, broker, Side.ASK_R, null, Duration.ofMillis(200));
        assertThat(client.first().get(WAIT_S, TimeUnit.SECONDS)).isInstanceOf(Queued.class);
        assertThat(client.answer().get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(new Cancelled(client.ref(), true));
        awaitLengths(0, 0);
    }

    @Test
    void aFullQueueDropsTheDynamicAskAndSaysSoFirst() throws Exception
    {
        final ActorId tiny = Brokers.start(system, BrokerSpec.of(DropQueueSpec.fifo(1)));
        final BrokerAwait waiting = Brokers.dynamicAsk(system, tiny, Side.ASK, "one", WAIT);
        assertThat(waiting.first().get(WAIT_S, TimeUnit.SECONDS)).isInstanceOf(Queued.class);
        final BrokerAwait refused = Brokers.dynamicAsk(system, tiny, Side.ASK, "two", WAIT);
        assertThat(refused.first().get(WAIT_S, TimeUnit.SECONDS)).as("the queue holds one: the newcomer is dropped")
            .isInstanceOf(Drop.class);
        assertThat(refused.answer().get(WAIT_S, TimeUnit.SECONDS)).isInstanceOf(Drop.class);
    }

    @Test
    void anActorLearnsAtOnceThatItWaitsAndKeepsHandlingItsMailbox() throws Exception
    {
        final BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
        final ActorId actor = system.register((ctx, envelope) ->
        {
            if ("ask".equals(envelope.event()))
            {
                Brokers.dynamicAsk(ctx, broker, Side.ASK, 9, "actor", 90);
            }
            else
            {
                inbox.add(envelope.cookie() + ":" + envelope.event());
            }
        });
        system.send(actor, "ask");
        assertThat(Await.next(inbox)).isEqualTo("90:" + new Queued(9));
        system.send(actor, "meanwhile");
        assertThat(Await.next(inbox)).isEqualTo("0:meanwhile");
        Brokers.ask(system, broker, Side.ASK_R, "worker", WAIT).get(WAIT_S, TimeUnit.SECONDS);
        assertThat((String)Await.next(inbox)).startsWith("90:Go[ref=9, counterparty=worker");
    }
}
