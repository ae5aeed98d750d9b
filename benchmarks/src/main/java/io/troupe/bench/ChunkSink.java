package io.troupe.bench;

import io.troupe.actor.ActorContext;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;

/**
 * {@code remote.throughput}'s receiver, on the child's node: decodes and counts every {@link Chunk}, checks
 * that the seqs arrive in order, acknowledges every {@value #ACK_EVERY}th chunk (seq 255, 511, ...) to its
 * sender, and answers a {@link Tally} request with its counts and the time on its own clock.
 */
final class ChunkSink implements Behavior
{
    /** One ack per this many chunks. */
    static final int ACK_EVERY = 256;

    private long received;
    private long expectedSeq;
    private long outOfOrder;

    @Override
    public void receive(final ActorContext ctx, final Envelope envelope)
    {
        final int type = envelope.type();
        if (type == RemoteCodecs.CHUNK_TYPE)
        {
            final Chunk chunk = (Chunk)envelope.event();
            final long seq = chunk.seq();
            received++;
            if (seq != expectedSeq)
            {
                outOfOrder++;
            }
            expectedSeq = seq + 1;
            if ((seq & (ACK_EVERY - 1)) == ACK_EVERY - 1)
            {
                ctx.send(envelope.sender(), new Ack(seq), RemoteCodecs.ACK_TYPE, 0, 0L);
            }
        }
        else if (type == RemoteCodecs.TALLY_TYPE)
        {
            ctx.reply(new Tally(received, outOfOrder, System.nanoTime()));
        }
    }
}
