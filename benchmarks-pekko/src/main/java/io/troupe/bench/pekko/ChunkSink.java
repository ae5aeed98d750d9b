package io.troupe.bench.pekko;

import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractMatchingBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * {@code remote.throughput}'s receiver, on the child's node: counts every {@link Chunk} (decoded by
 * {@link BenchSerializer}), checks that the seqs arrive in order, acknowledges every {@value #ACK_EVERY}th chunk
 * (seq 255, 511, ...) to the streamer named by {@link AckTo}, and answers a {@link TallyRequest} with its counts
 * and the time on its own clock.
 */
final class ChunkSink extends AbstractMatchingBehavior<SinkMessage>
{
    /** One ack per this many chunks. */
    static final int ACK_EVERY = 256;

    private ActorRef<Ack> streamer;
    private long received;
    private long expectedSeq;
    private long outOfOrder;

    private ChunkSink(final ActorContext<SinkMessage> context)
    {
        super(context);
    }

    /**
     * The behaviour.
     *
     * @return the behaviour.
     */
    static Behavior<SinkMessage> create()
    {
        return Behaviors.setup(ChunkSink::new);
    }

    @Override
    public Behavior<SinkMessage> onMessage(final SinkMessage message)
    {
        if (message instanceof Chunk chunk)
        {
            final long seq = chunk.seq();
            received++;
            if (seq != expectedSeq)
            {
                outOfOrder++;
            }
            expectedSeq = seq + 1;
            if ((seq & (ACK_EVERY - 1)) == ACK_EVERY - 1)
            {
                streamer.tell(new Ack(seq));
            }
        }
        else if (message instanceof TallyRequest request)
        {
            request.replyTo().tell(new Tally(received, outOfOrder, System.nanoTime()));
        }
        else if (message instanceof AckTo ackTo)
        {
            streamer = ackTo.streamer();
        }
        return this;
    }
}
