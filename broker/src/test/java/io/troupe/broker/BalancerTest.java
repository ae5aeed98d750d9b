package io.troupe.broker;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.ExecutorWorkers;
import io.troupe.actor.PoolConfig;
import io.troupe.testing.Await;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BalancerTest
{
    private static final ActorId A = ActorId.of(1, 1, 0);
    private static final ActorId B = ActorId.of(2, 1, 0);
    private static final ActorId C = ActorId.of(3, 1, 0);

    @Test
    void aRandomBalancerSpreadsEvenly()
    {
        final SplittableRandom random = new SplittableRandom(1);
        final RandomBalancer balancer = new RandomBalancer(List.of(A, B, C), () -> random);
        final Map<ActorId, Integer> counts = new HashMap<>();
        for (int i = 0; i < 30_000; i++)
        {
            counts.merge(balancer.pick(), 1, Integer::sum);
        }
        assertThat(counts.values()).allSatisfy(n -> assertThat(n).isBetween(9_500, 10_500));
    }

    @Test
    void powerOfTwoChoicesAvoidsTheSlowBrokerAndTriesTheUnknownOnes()
    {
        final SplittableRandom random = new SplittableRandom(2);
        final SojournBalancer balancer = new SojournBalancer(List.of(A, B, C), () -> random);
        balancer.onAnswer(A, new Go(1, null, 0, 1_000));
        balancer.onAnswer(B, new Drop(2, 900_000_000));
        assertThat(balancer.recentSojournNs(B)).isEqualTo(900_000_000);
        final Map<ActorId, Integer> counts = new HashMap<>();
        for (int i = 0; i < 30_000; i++)
        {
            counts.merge(balancer.pick(), 1, Integer::sum);
        }
        // B is chosen only when both choices... never: any pair with B holds a faster broker
        assertThat(counts.getOrDefault(B, 0)).isZero();
        assertThat(counts.get(C)).as("not heard from yet: counts as fastest").isGreaterThan(counts.get(A));

        balancer.onAnswer(B, new Go(3, null, 0, 0));
        assertThat(balancer.recentSojournNs(B)).as("moving average, weight 1/4").isEqualTo(675_000_000);
        balancer.onAnswer(B, "not an answer");
        assertThat(balancer.recentSojournNs(B)).isEqualTo(675_000_000);
    }

    @Test
    void aWorkerBalancerSendsEachWorkersRequestsToOneBrokerAndSpreadsTheWorkers()
    {
        final int[] worker = {-1};
        final WorkerBalancer balancer = new WorkerBalancer(List.of(A, B, C), () -> worker[0]);
        final Map<ActorId, Integer> workersPerBroker = new HashMap<>();
        for (int index = 0; index < 6; index++)
        {
            worker[0] = index; // pool 0, workers 0..5
            final ActorId first = balancer.pick();
            for (int i = 0; i < 100; i++)
            {
                assertThat(balancer.pick()).as("always the same broker for one worker").isEqualTo(first);
            }
            workersPerBroker.merge(first, 1, Integer::sum);
        }
        assertThat(workersPerBroker).containsOnlyKeys(A, B, C).allSatisfy((broker, n) -> assertThat(n).isEqualTo(2));
        worker[0] = 1 << 16; // pool 1, worker 0: another pool's worker 0 may go elsewhere
        assertThat(balancer.pick()).isNotNull();
        worker[0] = -1; // a plain thread: by its thread id, stable too
        assertThat(balancer.pick()).isEqualTo(balancer.pick());
    }

    @Test
    void aWorkerBalancerOnRealWorkersSeesEachWorkersOwnId() throws Exception
    {
        try (ActorSystem system = ActorSystem.start(new ActorSystemConfig()
            .pool(PoolConfig.named("default").threads(2))))
        {
            final CompletableFuture<Integer> seen = new CompletableFuture<>();
            system.send(system.register((ctx, envelope) -> seen.complete(ExecutorWorkers.current())),
                "which worker?");
            assertThat(seen.get(Await.DEFAULT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isIn(0, 1);
        }
        assertThat(ExecutorWorkers.current()).as("a plain thread").isEqualTo(-1);
    }

    @Test
    void aBalancerNeedsDistinctBrokers()
    {
        assertThatThrownBy(() -> new SojournBalancer(List.of())).hasMessageContaining("at least one broker");
        assertThatThrownBy(() -> new RandomBalancer(List.of(A, A))).hasMessageContaining("must differ");
        assertThat(new SojournBalancer(List.of(A)).pick()).isEqualTo(A);
    }
}
