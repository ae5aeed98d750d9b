package io.troupe.interconnect;

import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Events up to the 16 MiB default travel as chunks on the bulk stream without holding up small ones; the
 * receiver charges their reassembly to the sender's memory-quota account.
 */
@Timeout(90)
class LargeEventTest
{
    private static final Duration CONNECT = Duration.ofSeconds(10);
    private TestCluster cluster;

    @AfterEach
    void tearDown()
    {
        if (cluster != null)
        {
            cluster.close();
        }
    }

    @Test
    void aLargeEventArrivesWholeAndSmallOnesOvertakeIt() throws Exception
    {
        cluster = TestCluster.of(2).startAll();
        cluster.awaitConnected(CONNECT);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        final BlockingQueue<String> bigArrivals = new LinkedBlockingQueue<>();
        final BlockingQueue<Long> smallArrivals = new LinkedBlockingQueue<>();
        final ActorId bigSink = two.system.register((ctx, envelope) -> bigArrivals.add((String)envelope.event()));
        final ActorId smallSink = two.system.register((ctx, envelope) -> smallArrivals.add(System.nanoTime()));
        final int largest = one.interconnect.largestEventBytes();
        assertThat(largest).isEqualTo(16 * 1024 * 1024);

        final String big = "0123456789abcdef".repeat(8 * 1024 * 1024 / 16); // 8 MiB of chars, ~8 MiB encoded
        one.system.send(new Envelope(bigSink, ActorId.NONE, TestCluster.TEXT, 0, 0L, big, null)); // encoded here
        final long sentAt = System.nanoTime();
        one.system.send(new Envelope(smallSink, ActorId.NONE, TestCluster.TEXT, 0, 0L, "small", null));

        final Long smallAt = smallArrivals.poll(10, TimeUnit.SECONDS);
        final String arrived = bigArrivals.poll(30, TimeUnit.SECONDS);
        final long bigAt = System.nanoTime();
        assertThat(arrived).isEqualTo(big);
        assertThat(smallAt).isNotNull();
        assertThat(smallAt).as("the small event arrived before the large one finished").isLessThan(bigAt);
        assertThat(Duration.ofNanos(smallAt - sentAt)).as("small event latency while 8 MiB stream")
            .isLessThan(Duration.ofMillis(100));
        assertThat(one.interconnect.peerCounters().get(0).rejectedFrames()).isZero();
        assertThat(two.interconnect.peerCounters().get(0).rejectedFrames()).isZero();
    }

    @Test
    void aLargeEventTheReceiversQuotaCannotHoldEndsTheSessionAndIsReportedNotLost() throws Exception
    {
        cluster = TestCluster.of(2);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        cluster.start(one, cluster.config(one));
        cluster.memoryQuota = () -> io.troupe.memquota.MemoryQuotaConfig.of(1 << 20, 512 * 1024);
        cluster.start(two, cluster.config(two));
        cluster.awaitConnected(CONNECT);
        final BlockingQueue<String> arrivals = new LinkedBlockingQueue<>();
        final ActorId sink = two.system.register((ctx, envelope) -> arrivals.add((String)envelope.event()));
        final BlockingQueue<Envelope> atOne = new LinkedBlockingQueue<>();
        final ActorId sender = one.system.register((ctx, envelope) ->
        {
            if (envelope.event() instanceof String text && text.startsWith("send "))
            {
                ctx.send(sink, text.substring(5), TestCluster.TEXT, Envelope.FLAG_TRACK_DELIVERY, text.length());
            }
            else
            {
                atOne.add(envelope);
            }
        });

        final String tooBig = "x".repeat(4 << 20); // 4 MiB against a 1 MiB quota
        one.system.send(sender, "send " + tooBig);

        final Envelope notice = atOne.poll(20, TimeUnit.SECONDS);
        assertThat(notice).as("the sender hears of it").isNotNull();
        // unsure only if every chunk had gone out before the goodbye came; either way the receiver dropped it
        final io.troupe.actor.Undelivered undelivered = (io.troupe.actor.Undelivered)notice.event();
        assertThat(undelivered.recipient()).isEqualTo(sink);
        assertThat(undelivered.cookie()).isEqualTo(tooBig.length() + 5);
        assertThat(undelivered.reason()).isEqualTo(io.troupe.actor.UndeliveredReason.DISCONNECTED);
        assertThat(two.interconnect.counters().chunkFramesDropped()).isEqualTo(1);
        assertThat(arrivals).isEmpty();

        cluster.awaitConnected(CONNECT);
        final String fits = "y".repeat(256 * 1024); // chunked too (the bulk stream carries 128 KiB a message)
        one.system.send(sender, "send " + fits);
        assertThat(arrivals.poll(20, TimeUnit.SECONDS)).isEqualTo(fits);
        io.troupe.testing.Await.until(() -> two.system.memoryQuota().usedBytes() < 256 * 1024,
            Duration.ofSeconds(5), "the reassembly buffer's charge is given back once the event was read");
        assertThat(atOne.poll(300, TimeUnit.MILLISECONDS)).as("nothing else to report").isNull();
    }
}
