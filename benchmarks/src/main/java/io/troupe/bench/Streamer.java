package io.troupe.bench;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code remote.throughput}'s sender, on the measuring node: streams {@link Chunk}s to the remote sink while
 * at most {@value #MAX_UNACKED} are unacknowledged (sent minus acknowledged). It never spins or blocks: on
 * {@link #START} it sends a first burst that fills the window, and each {@link Ack} (one per
 * {@value ChunkSink#ACK_EVERY} chunks) frees room for the next burst, sent from the same handler.
 *
 * <p>The first chunks go to the sink's service id; the acks come from the sink's own id, which the streamer
 * uses from then on, as an actor that resolved a service once would. Every chunk carries the same 16-byte
 * array, written once and never after (events are immutable), so a send allocates the chunk and its
 * envelope; the wire copy is made at send.
 */
final class Streamer implements Behavior
{
    /** Starts streaming (a local event). */
    static final String START = "start";
    /** Stops sending; acks in flight are still taken (a local event). */
    static final String STOP = "stop";
    /** Largest number of chunks sent and not yet acknowledged. */
    static final long MAX_UNACKED = 2048;

    private static final byte[] DATA = "sixteen bytes!!!".getBytes(StandardCharsets.US_ASCII);

    private final AtomicLong sentCounter;
    private final int chunkType;
    private ActorId sink;
    private boolean running;
    private long nextSeq;
    private long acked;

    /**
     * Creates the streamer.
     *
     * @param sink        the sink's service id on the other node.
     * @param sentCounter where the number of chunks sent is published for the driver.
     * @param chunkType   the type id chunks are sent with: {@link RemoteCodecs#CHUNK_TYPE}, or
     *                    {@link io.troupe.actor.EventTypes#BY_CLASS} as a typed send does (the interconnect then
     *                    finds the codec by the chunk's class).
     */
    Streamer(final ActorId sink, final AtomicLong sentCounter, final int chunkType)
    {
        this.sink = sink;
        this.sentCounter = sentCounter;
        this.chunkType = chunkType;
    }

    @Override
    public void receive(final ActorContext ctx, final Envelope envelope)
    {
        if (envelope.type() == RemoteCodecs.ACK_TYPE)
        {
            final Ack ack = (Ack)envelope.event();
            acked = Math.max(acked, ack.seq() + 1);
            sink = envelope.sender();
            fill(ctx);
        }
        else if (envelope.event() == START)
        {
            running = true;
            fill(ctx);
        }
        else if (envelope.event() == STOP)
        {
            running = false;
        }
    }

    private void fill(final ActorContext ctx)
    {
        if (!running)
        {
            return;
        }
        long seq = nextSeq;
        while (seq - acked < MAX_UNACKED)
        {
            ctx.send(sink, new Chunk(seq, DATA), chunkType, 0, 0L);
            seq++;
        }
        nextSeq = seq;
        sentCounter.lazySet(seq);
    }
}
