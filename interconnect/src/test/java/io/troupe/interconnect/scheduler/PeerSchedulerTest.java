package io.troupe.interconnect.scheduler;

import io.troupe.actor.ActorId;
import io.troupe.actor.ServiceId;
import io.troupe.interconnect.TestCluster;
import io.troupe.interconnect.scheduler.SchedulerCounters.Counter;
import io.troupe.serialization.EventCodecRegistry;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The scheduler as an actor on a real node, its peers real nodes over Aeron on loopback. */
@Timeout(90)
class PeerSchedulerTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);
    /**
     * The timeout of requests that must be answered: generous, so that none times out on a loaded machine and comes
     * back a late response (requests to a node that stops fail at once, by its goodbye).
     */
    private static final Duration ANSWERED = Duration.ofSeconds(30);
    private static final int CHUNKS = 10_000;
    private static final String SERVER = "chunks";

    record ChunkRequest(int index)
    {
    }

    record ChunkReply(int index, int servedBy)
    {
    }

    private TestCluster cluster;

    @AfterEach
    void close()
    {
        if (cluster != null)
        {
            cluster.close();
        }
    }

    private TestCluster startCluster()
    {
        cluster = TestCluster.of(3);
        cluster.codecs = EventCodecRegistry.builder().withTroupeCodecs().register(ChunkRequest.class)
            .register(ChunkReply.class).build();
        cluster.startAll();
        for (final int node : new int[] {2, 3})
        {
            final TestCluster.Node server = cluster.node(node);
            server.system.registerService(ServiceId.of(0, SERVER), server.system.register((ctx, envelope) ->
            {
                if (envelope.event() instanceof ChunkRequest request)
                {
                    ctx.reply(new ChunkReply(request.index(), node));
                }
            }));
        }
        cluster.awaitConnected(WAIT);
        return cluster;
    }

    /**
     * Downloads chunks from whichever peers are offered: sends on every channel it may, puts a failed chunk back and
     * asks again. Its state is touched only by the scheduler's callbacks (one thread).
     */
    private static final class Downloader implements Sender, Receiver
    {
        final PeerScheduler scheduler;
        final ArrayDeque<Integer> wanted = new ArrayDeque<>();
        final Map<Long, Integer> chunkOf = new HashMap<>();
        final Map<Long, Integer> callsPerRequest = new HashMap<>();
        final int[] deliveries = new int[CHUNKS];
        final Map<Integer, AtomicInteger> servedBy = new ConcurrentHashMap<>();
        final AtomicLong received = new AtomicLong();
        final AtomicLong failedOver = new AtomicLong();
        final AtomicLong mismatches = new AtomicLong();
        final CompletableFuture<Void> done = new CompletableFuture<>();
        boolean waiting = true;

        Downloader(final PeerScheduler scheduler)
        {
            this.scheduler = scheduler;
            for (int i = 0; i < CHUNKS; i++)
            {
                wanted.add(i);
            }
        }

        @Override
        public void onOffer(final Offer offer)
        {
            int sent = 0;
            for (final Channel channel : offer.channels())
            {
                if (offer.remaining() == 0 || wanted.isEmpty())
                {
                    break;
                }
                final int chunk = wanted.poll();
                chunkOf.put(offer.request(channel, ServiceId.of(channel.nodeId(), SERVER), new ChunkRequest(chunk),
                    ANSWERED, this), chunk);
                sent++;
            }
            if (sent > 0)
            {
                waiting = false;
                more();
            }
        }

        @Override
        public void onSuccess(final long requestId, final Object response)
        {
            callsPerRequest.merge(requestId, 1, Integer::sum);
            final ChunkReply reply = (ChunkReply)response;
            final Integer asked = chunkOf.remove(requestId);
            if (asked == null || asked != reply.index())
            {
                mismatches.incrementAndGet();
            }
            deliveries[reply.index()]++;
            servedBy.computeIfAbsent(reply.servedBy(), n -> new AtomicInteger()).incrementAndGet();
            if (received.incrementAndGet() == CHUNKS)
            {
                done.complete(null);
            }
            more();
        }

        @Override
        public void onFailure(final long requestId, final RequestFailure reason)
        {
            callsPerRequest.merge(requestId, 1, Integer::sum);
            wanted.add(chunkOf.remove(requestId));
            failedOver.incrementAndGet();
            more();
        }

        private void more()
        {
            if (!waiting && !wanted.isEmpty())
            {
                waiting = true;
                scheduler.schedule(this, Priority.NORMAL);
            }
        }
    }

    @Test
    void tenThousandChunksArriveOnceEachWhileAPeerIsKilledMidway() throws Exception
    {
        startCluster();
        final PeerScheduler scheduler = PeerScheduler.start(cluster.node(1).system,
            new SchedulerConfig().channelsPerPeer(8).maxInFlight(12), 2, 3);
        final Downloader downloader = new Downloader(scheduler);
        scheduler.schedule(downloader, Priority.NORMAL);
        Await.until(() -> downloader.received.get() >= CHUNKS / 2, WAIT, "half the chunks");
        cluster.stop(cluster.node(3));
        final int servedByThreeBefore = downloader.servedBy.get(3).get();
        downloader.done.get(60, TimeUnit.SECONDS);
        scheduler.stop().get(10, TimeUnit.SECONDS);

        for (int chunk = 0; chunk < CHUNKS; chunk++)
        {
            assertThat(downloader.deliveries[chunk]).as("deliveries of chunk %d", chunk).isEqualTo(1);
        }
        assertThat(downloader.callsPerRequest.values()).allMatch(calls -> calls == 1);
        assertThat(downloader.mismatches.get()).isZero();
        assertThat(downloader.failedOver.get()).as("requests of the dead peer failed over").isPositive();
        assertThat(servedByThreeBefore).isPositive();
        assertThat(downloader.servedBy.get(2).get()).isPositive();
        // after the kill node 3 served only what was already on its way back
        assertThat(downloader.servedBy.get(3).get() - servedByThreeBefore).isLessThanOrEqualTo(12);
        final SchedulerCounters counters = scheduler.counters();
        assertThat(counters.get(Counter.IN_FLIGHT_PEAK)).isLessThanOrEqualTo(12);
        assertThat(counters.get(Counter.RESPONSES)).isEqualTo(CHUNKS);
        assertThat(counters.get(Counter.DISCONNECT_FAILURES) + counters.get(Counter.TIMEOUTS))
            .isEqualTo(downloader.failedOver.get());
        assertThat(counters.get(Counter.LATE_RESPONSES)).isZero();
    }

    @Test
    void aRequestToAnUnknownServiceFailsUndeliveredAndATimeoutFailsItsReceiver() throws Exception
    {
        startCluster();
        final PeerScheduler scheduler = PeerScheduler.start(cluster.node(1).system,
            new SchedulerConfig().channelsPerPeer(1), 2);
        final CompletableFuture<RequestFailure> unknown = new CompletableFuture<>();
        final CompletableFuture<RequestFailure> slow = new CompletableFuture<>();
        final Receiver to = failingInto(unknown);
        scheduler.schedule(offer -> offer.request(offer.channels().get(0), ServiceId.of(2, "nobody"),
            new ChunkRequest(1), ANSWERED, to), Priority.NORMAL);
        assertThat(unknown.get(WAIT.toSeconds(), TimeUnit.SECONDS))
            .isEqualTo(RequestFailure.UNDELIVERED);

        // node 2's silent service: the request times out, the channel opens again
        cluster.node(2).system.registerService(ServiceId.of(0, "silent"),
            cluster.node(2).system.register((ctx, e) -> { }));
        scheduler.schedule(offer -> offer.request(offer.channels().get(0), ServiceId.of(2, "silent"),
            new ChunkRequest(2), Duration.ofMillis(200), failingInto(slow)), Priority.NORMAL);
        assertThat(slow.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(RequestFailure.TIMEOUT);
        Await.until(() -> scheduler.counters().get(Counter.IN_FLIGHT) == 0, WAIT, "the channel open again");
        assertThat(scheduler.counters().get(Counter.UNDELIVERED_FAILURES)).isEqualTo(1);
        assertThat(scheduler.counters().get(Counter.TIMEOUTS)).isEqualTo(1);
        scheduler.stop().get(10, TimeUnit.SECONDS);
        assertThat(scheduler.schedule(offer -> { }, Priority.HIGH)).isFalse();
    }

    @Test
    void aRecipientThatGoesBeforeItAnswersFailsItsRequestAtOnceNotAtItsTimeout() throws Exception
    {
        startCluster();
        final PeerScheduler scheduler = PeerScheduler.start(cluster.node(1).system,
            new SchedulerConfig().channelsPerPeer(1), 2);
        // takes the request and passes away without answering
        final ActorId quitter = cluster.node(2).system.register((ctx, e) -> ctx.passAway()).onNode(2);
        final CompletableFuture<RequestFailure> failure = new CompletableFuture<>();
        final long start = System.nanoTime();
        scheduler.schedule(offer -> offer.request(offer.channels().get(0), quitter, new ChunkRequest(3),
            Duration.ofMinutes(5), failingInto(failure)), Priority.NORMAL);

        assertThat(failure.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(RequestFailure.UNDELIVERED);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("its Terminated, not the 5-minute timeout")
            .isLessThan(WAIT);
        Await.until(() -> scheduler.counters().get(Counter.IN_FLIGHT) == 0, WAIT, "the channel open again");
        scheduler.stop().get(10, TimeUnit.SECONDS);
    }

    /** A receiver that expects a failure: it completes the future with the reason (an answer fails it). */
    private static Receiver failingInto(final CompletableFuture<RequestFailure> failure)
    {
        return new Receiver()
        {
            @Override
            public void onSuccess(final long requestId, final Object response)
            {
                failure.completeExceptionally(new AssertionError("answered: " + response));
            }

            @Override
            public void onFailure(final long requestId, final RequestFailure reason)
            {
                failure.complete(reason);
            }
        };
    }
}
