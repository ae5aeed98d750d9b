package io.troupe.interconnect;

import io.troupe.actor.spi.ActorSystemSpi;
import io.aeron.Publication;
import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Publishers that are not peers, pointed at a node's endpoint: the node's media driver makes no image (no log
 * buffers, no files) for a term longer than the node's own or for more sessions of a stream from one address than
 * the peers configured there need; each refusal is counted, the images it does make are never read (their frames
 * are unsealed), and the node's sessions carry on.
 */
@Timeout(90)
class RogueImageTest
{
    private static final Duration CONNECT = Duration.ofSeconds(30);
    /**
     * The window in which no further image may appear: long enough for a publisher's SETUPs (every 100 ms or so) to
     * be answered if they were going to be. The window is what is tested.
     */
    private static final Duration QUIET = Duration.ofSeconds(1);

    @AutoClose
    private final TestCluster cluster = TestCluster.of(2);
    @AutoClose
    private RogueAeron rogue;

    @Test
    void publishersThatAreNotPeersGetNoImagesBeyondWhatTheControlStreamAllows() throws Exception
    {
        cluster.startAll().awaitConnected(CONNECT);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        final InterconnectConfig config = cluster.config(two);
        rogue = new RogueAeron();

        // a term 256 times the node's, on each stream
        final Publication hugeTerm = publication(two.port, config.controlStreamId(), 16 * 1024 * 1024);
        final Publication hugeData = publication(two.port, config.dataStreamId(), 16 * 1024 * 1024);
        final Publication hugeBulk = publication(two.port, config.bulkStreamId(), 64 * 1024 * 1024);
        Await.until(() -> two.interconnect.counters().rejectedFrames(FrameRejection.ROGUE_IMAGE) >= 3, CONNECT,
            "their SETUPs refused");
        Await.holdsFor(QUIET, () -> Stream.of(hugeTerm, hugeData, hugeBulk).noneMatch(Publication::isConnected),
            "no image for a term longer than the node's");

        // from 127.0.0.1, where one peer is configured: two images per stream for it, two spare; node 1 holds one
        for (final int stream : new int[] {config.controlStreamId(), config.dataStreamId(), config.bulkStreamId()})
        {
            final List<Publication> rogues = new ArrayList<>();
            for (int i = 0; i < 6; i++)
            {
                rogues.add(publication(two.port, stream, 64 * 1024));
            }
            Await.until(() -> rogues.stream().filter(Publication::isConnected).count() == 3, CONNECT,
                "three sessions let in on stream " + stream);
            Await.holdsFor(QUIET, () -> rogues.stream().filter(Publication::isConnected).count() == 3,
                "no more than three sessions let in on stream " + stream);
            rogues.forEach(Publication::close);
        }

        // closed, they give their room back
        final Publication later = publication(two.port, config.controlStreamId(), 64 * 1024);
        Await.until(later::isConnected, CONNECT, "a control session once the others left");

        assertThat(two.interconnect.isConnected(1)).isTrue();
        assertThat(two.interconnect.peerCounters().get(0).sessionsDown()).isZero();
        final BlockingQueue<Object> received = new LinkedBlockingQueue<>();
        final ActorId sink = two.system.register((ctx, envelope) -> received.add(envelope.event()));
        ActorSystemSpi.of(one.system).send(
            new Envelope(sink, ActorId.NONE, TestCluster.TEXT, 0, 0L, "still fine", null));
        assertThat(Await.next(received)).isEqualTo("still fine");
    }

    private Publication publication(final int port, final int streamId, final int termLength)
    {
        return rogue.publication(port, streamId, termLength);
    }
}
