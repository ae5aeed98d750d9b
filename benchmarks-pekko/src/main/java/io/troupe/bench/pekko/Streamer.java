package io.troupe.bench.pekko;

import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractMatchingBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code remote.throughput}'s sender, on the measuring node: streams {@link Chunk}s to the remote sink while at
 * most {@value #MAX_UNACKED} are unacknowledged (sent minus acknowledged). It never spins or blocks: on
 * {@link Command#START} it tells the sink where to ack ({@link AckTo}) and sends a first burst that fills the
 * window, and each {@link Ack} (one per {@value ChunkSink#ACK_EVERY} chunks) frees room for the next burst, sent
 * from the same handler. Every chunk is a new {@link Chunk} carrying the same 16-byte array, written once.
 */
final class Streamer extends AbstractMatchingBehavior<StreamerMessage>
{
    /** Largest number of chunks sent and not yet acknowledged. */
    static final long MAX_UNACKED = 2048;

    private static final byte[] DATA = "sixteen bytes!!!".getBytes(StandardCharsets.US_ASCII);

    private final ActorRef<SinkMessage> sink;
    private final AtomicLong sentCounter;
    private final AtomicLong ackedCounter;
    private boolean running;
    private long nextSeq;
    private long acked;

    /** The streamer's local commands. */
    enum Command implements StreamerMessage
    {
        /** Tells the sink where to ack, then starts streaming. */
        START,
        /** Stops sending; acks still in flight are taken. */
        STOP
    }

    private Streamer(final ActorContext<StreamerMessage> context, final ActorRef<SinkMessage> sink,
        final AtomicLong sentCounter, final AtomicLong ackedCounter)
    {
        super(context);
        this.sink = sink;
        this.sentCounter = sentCounter;
        this.ackedCounter = ackedCounter;
    }

    /**
     * The behaviour.
     *
     * @param sink         the remote sink, resolved once.
     * @param sentCounter  where the number of chunks sent is published for the driver.
     * @param ackedCounter where the number of chunks acknowledged is published.
     * @return the behaviour.
     */
    static Behavior<StreamerMessage> create(final ActorRef<SinkMessage> sink, final AtomicLong sentCounter,
        final AtomicLong ackedCounter)
    {
        return Behaviors.setup(context -> new Streamer(context, sink, sentCounter, ackedCounter));
    }

    @Override
    public Behavior<StreamerMessage> onMessage(final StreamerMessage message)
    {
        if (message instanceof Ack ack)
        {
            acked = Math.max(acked, ack.seq() + 1);
            ackedCounter.lazySet(acked);
            fill();
        }
        else if (message == Command.START)
        {
            running = true;
            sink.tell(new AckTo(getContext().getSelf().narrow()));
            fill();
        }
        else if (message == Command.STOP)
        {
            running = false;
        }
        return this;
    }

    private void fill()
    {
        if (!running)
        {
            return;
        }
        long seq = nextSeq;
        while (seq - acked < MAX_UNACKED)
        {
            sink.tell(new Chunk(seq, DATA));
            seq++;
        }
        nextSeq = seq;
        sentCounter.lazySet(seq);
    }
}
