package io.troupe.interconnect;

import io.troupe.memquota.Account;
import io.troupe.memquota.CoarseClock;
import io.troupe.memquota.MemoryQuotaException;
import io.troupe.memquota.Participant;
import io.troupe.memquota.Participation;
import io.troupe.memquota.Reclaimed;
import io.troupe.serialization.wire.ChunkAssembler;
import io.troupe.serialization.wire.ChunkFrame;
import org.agrona.DirectBuffer;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One peer's large frames put back together from their chunks, with the assembler's buffer charged to the
 * peer's memory-quota account: a peer that sends the first chunks of frames (up to the largest event) costs the
 * node quota for what it makes the node hold, as its outbound queue does.
 *
 * <p>A frame in progress is data of the age of its first chunk. When the quota cannot take what the next chunk
 * needs (the node is over its maximum), or the reclaimer picks this buffer as holding the oldest data, the frame in
 * progress is dropped with its buffer: {@link #onChunk} returns {@link #NO_MEMORY}, or {@link #reclaimRequested()}
 * turns true for the agent's next cycle. A dropped frame may hold a tracked event that nothing acknowledges while
 * later frames of the stream are, so the caller must then end the session: the sender turns what it has not seen
 * acknowledged into {@code Undelivered(DISCONNECTED, unsure)}, and nothing is lost silently.
 *
 * <p>Owned by the interconnect agent; {@link #oldestDataTimeNs()} and {@link #reclaim} are called by the quota's
 * reclaimer.
 */
final class InboundChunks implements Participant
{
    /** {@link #onChunk}: the frame in progress was dropped for want of memory; end the session. */
    static final int NO_MEMORY = -2;

    private static final CompletableFuture<Reclaimed> COLLAPSING =
        CompletableFuture.completedFuture(Reclaimed.COLLAPSING);

    private final ChunkAssembler assembler;
    private final Account account;
    private final CoarseClock clock;
    private Participation participation;
    /** Bytes the participation holds for the buffer. */
    private long charged;
    private volatile long frameStartedNs = NO_DATA;
    private volatile boolean reclaimed;
    private long framesDropped;

    /**
     * @param maxFrameBytes the largest whole frame accepted.
     * @param account       the peer's memory-quota account.
     * @param clock         the quota's clock, for the age of a frame in progress.
     */
    InboundChunks(final int maxFrameBytes, final Account account, final CoarseClock clock)
    {
        this.assembler = new ChunkAssembler(maxFrameBytes);
        this.account = account;
        this.clock = clock;
        this.participation = account.register(this);
        charge();
    }

    /**
     * Adds a chunk.
     *
     * @param chunk a validated chunk frame.
     * @return the whole frame's length once complete (in {@link #buffer()} until {@link #afterRead()}); 0 if more
     *     chunks are needed; -1 if the chunk was rejected; {@link #NO_MEMORY} if the frame in progress was
     *     dropped because the quota could not hold it.
     */
    int onChunk(final ChunkFrame chunk)
    {
        if (reclaimed)
        {
            return onReclaimed() ? NO_MEMORY : onChunk(chunk);
        }
        final boolean starting = !assembler.inProgress();
        final int length = assembler.onChunk(chunk);
        if (starting && assembler.inProgress())
        {
            frameStartedNs = clock.nowNs();
        }
        else if (!assembler.inProgress())
        {
            frameStartedNs = NO_DATA;
        }
        if (!charge())
        {
            final boolean hadFrame = assembler.inProgress() || length > 0;
            drop();
            return hadFrame ? NO_MEMORY : length;
        }
        return length;
    }

    /**
     * Where a completed frame lies, from offset 0.
     *
     * @return the buffer.
     */
    DirectBuffer buffer()
    {
        return assembler.buffer();
    }

    /** A completed frame has been read: a large buffer is let go and its charge with it. */
    void afterRead()
    {
        assembler.shrink();
        charge();
    }

    /** Drops a frame in progress (its sender's session ended) and a large buffer with it. */
    void reset()
    {
        assembler.reset();
        frameStartedNs = NO_DATA;
        charge();
    }

    /**
     * Whether the reclaimer took this buffer's memory back: the agent calls {@link #onReclaimed()} then.
     *
     * @return true if it did and the agent has not yet dealt with it.
     */
    boolean reclaimRequested()
    {
        return reclaimed;
    }

    /**
     * Deals with a reclamation: drops the frame in progress and its buffer, and registers again with the quota
     * (the reclaimed participation is forgotten).
     *
     * @return true if a frame was in progress: the caller ends the session.
     */
    boolean onReclaimed()
    {
        final boolean hadFrame = assembler.inProgress();
        reclaimed = false;
        charged = 0; // forgotten with the old participation
        participation = account.register(this);
        drop();
        return hadFrame;
    }

    /**
     * Bytes charged to the quota now.
     *
     * @return the bytes.
     */
    long chargedBytes()
    {
        return charged;
    }

    /**
     * Frames dropped unfinished for want of memory.
     *
     * @return the count.
     */
    long framesDropped()
    {
        return framesDropped;
    }

    /**
     * The assembler's count of rejected chunks and frames dropped unfinished.
     *
     * @return the count.
     */
    long rejected()
    {
        return assembler.rejected();
    }

    private void drop()
    {
        if (assembler.inProgress())
        {
            framesDropped++;
        }
        assembler.reset();
        frameStartedNs = NO_DATA;
        if (!charge())
        {
            // the buffer kept between frames does not fit the quota now: hold it uncharged rather than fail (at
            // most ChunkAssembler.KEPT_BYTES per peer, and only while the node is over its maximum)
            charged = Math.min(charged, assembler.capacity());
        }
    }

    /** Brings the charge to the buffer's capacity; false if the quota refused the growth. */
    private boolean charge()
    {
        final long capacity = assembler.capacity();
        if (capacity < charged)
        {
            participation.release(charged - capacity);
            charged = capacity;
            return true;
        }
        if (capacity == charged)
        {
            return true;
        }
        try
        {
            participation.claim(capacity - charged);
            charged = capacity;
            return true;
        }
        catch (final MemoryQuotaException ex)
        {
            return false;
        }
    }

    @Override
    public long oldestDataTimeNs()
    {
        return frameStartedNs;
    }

    @Override
    public CompletionStage<Reclaimed> reclaim(final long discardOlderThanNs, final long bytesWanted)
    {
        reclaimed = true;
        return COLLAPSING;
    }
}
