package io.troupe.broker;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.PoolConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many client and worker actors hammer one broker with a CoDel queue on each side: every request is answered
 * exactly once, Go or Drop, and every Go on one side has its partner on the other.
 */
@Timeout(120)
class BrokerStressTest
{
    private static final int CLIENTS = 8;
    private static final int WORKERS = 8;
    private static final int REQUESTS = 5_000;

    @Test
    void everyRequestIsAnsweredExactlyOnceAndMatchesPairUp() throws Exception
    {
        try (ActorSystem system = ActorSystem.start(new ActorSystemConfig().nodeId(1)
            .pool(PoolConfig.named("default").threads(2))))
        {
            final ActorId broker = Brokers.start(system, BrokerSpec.of(
                CodelQueueSpec.of(Duration.ofMillis(5), Duration.ofMillis(50))));
            final ConcurrentHashMap<String, Object> answers = new ConcurrentHashMap<>();
            final AtomicLong duplicates = new AtomicLong();
            final AtomicLong[] gos = {new AtomicLong(), new AtomicLong()};
            final CountDownLatch done = new CountDownLatch(CLIENTS + WORKERS);
            final List<ActorId> actors = new ArrayList<>();
            for (int a = 0; a < CLIENTS + WORKERS; a++)
            {
                final Side side = a < CLIENTS ? Side.ASK : Side.ASK_R;
                final int actor = a;
                final int[] answered = {0};
                final int[] sent = {0};
                actors.add(system.register((ctx, envelope) ->
                {
                    final Object event = envelope.event();
                    if (event instanceof Go || event instanceof Drop)
                    {
                        final long ref = event instanceof Go go ? go.ref() : ((Drop)event).ref();
                        if (answers.put(actor + ":" + ref, event) != null)
                        {
                            duplicates.incrementAndGet();
                        }
                        if (event instanceof Go)
                        {
                            gos[side.ordinal()].incrementAndGet();
                        }
                        if (++answered[0] == REQUESTS)
                        {
                            done.countDown();
                        }
                    }
                    // keep up to 16 requests outstanding
                    while (sent[0] < REQUESTS && sent[0] - answered[0] < 16)
                    {
                        Brokers.ask(ctx, broker, side, ++sent[0], null, 0);
                    }
                }));
            }
            for (final ActorId actor : actors)
            {
                system.send(actor, "go");
            }
            assertThat(done.await(100, TimeUnit.SECONDS)).as("every request answered").isTrue();
            assertThat(duplicates.get()).isZero();
            assertThat(answers).hasSize((CLIENTS + WORKERS) * REQUESTS);
            assertThat(gos[0].get()).as("each client Go has a worker Go").isEqualTo(gos[1].get());
            assertThat(gos[0].get()).as("most requests matched").isGreaterThan(CLIENTS * REQUESTS / 2);
        }
    }
}
