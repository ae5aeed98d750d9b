package io.troupe.broker;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.PoolConfig;
import io.troupe.actor.ServiceId;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A node's named brokers: started as services, their figures published, their queues changed while they run. */
class BrokerDirectoryTest
{
    private ActorSystem system;
    private BrokerDirectory directory;

    @BeforeEach
    void start()
    {
        system = ActorSystem.start(new ActorSystemConfig().nodeId(1).pool(PoolConfig.named("default").threads(2)));
        directory = new BrokerDirectory(system);
    }

    @AfterEach
    void stop()
    {
        system.close();
    }

    /** How long to wait for what should happen (an answer, a gauge): never reached on a slow machine. */
    private static final Duration WAIT = Await.DEFAULT_TIMEOUT;

    @Test
    void aBrokerIsAServiceOfTheNodeAndPublishesItsQueuesMatchesAndDrops() throws Exception
    {
        final ActorId id = directory.start("orders", new BrokerSpec(DropQueueSpec.fifo(3), DropQueueSpec.unbounded(),
            List.of()));
        assertThat(system.lookupService(ServiceId.of(1, "orders"))).isEqualTo(id);
        final BrokerGauges gauges = directory.get("orders").gauges();

        final List<CompletableFuture<Object>> waiting = new ArrayList<>();
        for (int i = 0; i < 5; i++)
        {
            waiting.add(Brokers.ask(system, id, Side.ASK, null, WAIT));
        }
        // three wait, two find the queue full
        Await.until(() -> gauges.length(Side.ASK) == 3 && gauges.drops(Side.ASK) == 2, "3 queued and 2 dropped");
        assertThat(gauges.headSojournNs(Side.ASK, System.nanoTime())).isPositive();
        assertThat(gauges.length(Side.ASK_R)).isZero();
        assertThat(gauges.headSojournNs(Side.ASK_R, System.nanoTime())).isZero();

        for (int i = 0; i < 3; i++)
        {
            assertThat(Brokers.ask(system, id, Side.ASK_R, null, WAIT).get()).isInstanceOf(Go.class);
        }
        // the gauges are published one by one after the handler that answered: the length may show before the
        // matches and the head's age of the same batch, so wait for all of them
        Await.until(() -> gauges.length(Side.ASK) == 0 && gauges.matches(Side.ASK) == 3 &&
            gauges.matches(Side.ASK_R) == 3 && gauges.headSojournNs(Side.ASK, System.nanoTime()) == 0,
            "the queue to empty, its matches counted");
        assertThat(waiting.stream().filter(f -> f.join() instanceof Drop).count()).isEqualTo(2);
        assertThat(directory.list()).extracting(BrokerDirectory.Entry::name).containsExactly("orders");
    }

    @Test
    void newQueuePoliciesApplyToARunningBrokerAndKeepWhatIsQueued() throws Exception
    {
        final ActorId id = directory.start("jobs", BrokerSpec.of(DropQueueSpec.unbounded()));
        final BrokerGauges gauges = directory.get("jobs").gauges();
        final CompletableFuture<Object> queued = Brokers.ask(system, id, Side.ASK, null, WAIT);
        Await.until(() -> gauges.length(Side.ASK) == 1, "one request queued");

        final BrokerSpec sent = directory.reconfigureQueues("jobs", TimeoutQueueSpec.of(Duration.ofMillis(200)), null);
        assertThat(sent.askR()).isEqualTo(DropQueueSpec.unbounded());
        Await.until(() -> gauges.reconfigurations() == 1, "the broker to apply it");
        assertThat(gauges.spec()).isEqualTo(sent);
        assertThat(BrokerSpecText.format(gauges.spec())).isEqualTo("ask=timeout(timeout=200ms) askR=drop()");
        // the queued request moved over and now times out under the new policy
        assertThat(queued.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isInstanceOf(Drop.class);
        // published after the handler that sent the Drop: it may show a moment after the Drop arrived
        Await.until(() -> gauges.drops(Side.ASK) == 1, "the drop is counted");

        // a second change builds on the first even before the broker applied it
        directory.reconfigureQueues("jobs", null, DropQueueSpec.fifo(1));
        Await.until(() -> gauges.reconfigurations() == 2, "the second change");
        assertThat(BrokerSpecText.format(gauges.spec())).isEqualTo("ask=timeout(timeout=200ms) askR=drop(max=1)");
    }

    @Test
    void badNamesAndUnknownBrokersAreRefusedClearly()
    {
        assertThatThrownBy(() -> directory.start("has space", BrokerSpec.of(DropQueueSpec.unbounded())))
            .hasMessageContaining("broker name 'has space' is not allowed");
        assertThatThrownBy(() -> directory.start("thirteen-char", BrokerSpec.of(DropQueueSpec.unbounded())))
            .hasMessageContaining("not allowed");
        directory.start("a", BrokerSpec.of(DropQueueSpec.unbounded()));
        assertThatThrownBy(() -> directory.start("a", BrokerSpec.of(DropQueueSpec.unbounded())))
            .hasMessage("a broker named 'a' runs already");
        system.registerService(ServiceId.of(1, "taken"), directory.get("a").id());
        assertThatThrownBy(() -> directory.start("taken", BrokerSpec.of(DropQueueSpec.unbounded())))
            .hasMessage("the service name 'taken' is taken on this node");
        assertThatThrownBy(() -> directory.reconfigureQueues("b", DropQueueSpec.unbounded(), null))
            .hasMessage("no broker named 'b' on this node (it runs a)");
        assertThatThrownBy(() -> directory.reconfigureQueues("a", null, null))
            .hasMessageContaining("give a new policy");
        assertThat(directory.get("b")).isNull();
    }
}
