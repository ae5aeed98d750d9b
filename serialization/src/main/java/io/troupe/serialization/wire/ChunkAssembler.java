package io.troupe.serialization.wire;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

/**
 * Puts the chunks of one large frame back together, for one stream of one sender (whose chunks arrive in
 * order). Checks every chunk against the frame it claims to belong to: a chunk that does not continue the
 * frame in progress, claims a frame larger than the limit, or overruns it, drops the frame in progress and
 * is counted. The buffer grows with the bytes that arrive, never to the length a first chunk claims, and
 * {@link #shrink()} gives a large one back once its frame has been read. Owned by the decoding thread.
 */
public final class ChunkAssembler
{
    /** The buffer kept between frames; a larger one is let go by {@link #shrink()}. */
    public static final int KEPT_BYTES = 64 * 1024;

    private final int maxFrameBytes;
    private ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(4096);
    private int totalLength;
    private int assembled;
    private long rejected;

    /**
     * An assembler.
     *
     * @param maxFrameBytes the largest whole frame accepted.
     */
    public ChunkAssembler(final int maxFrameBytes)
    {
        if (maxFrameBytes < 1)
        {
            throw new IllegalArgumentException("maxFrameBytes " + maxFrameBytes + " must be at least 1");
        }
        this.maxFrameBytes = maxFrameBytes;
    }

    /**
     * Adds a chunk.
     *
     * @param chunk a validated chunk frame.
     * @return the whole frame's length once this chunk completes it (the frame is in {@link #buffer()} from 0
     *     until the next call); 0 if more chunks are needed; -1 if the chunk was rejected (counted).
     */
    public int onChunk(final ChunkFrame chunk)
    {
        final int total = chunk.totalLength();
        final int offset = chunk.chunkOffset();
        final int length = chunk.bytesLength();
        if (offset == 0)
        {
            if (assembled != 0)
            {
                rejected++; // the previous frame never completed
            }
            if (total < 1 || total > maxFrameBytes)
            {
                return reject();
            }
            totalLength = total;
            assembled = 0;
        }
        else if (assembled == 0 || total != totalLength || offset != assembled)
        {
            return reject();
        }
        if (length > totalLength - assembled)
        {
            return reject();
        }
        chunk.getBytes(buffer, assembled);
        assembled += length;
        if (assembled == totalLength)
        {
            assembled = 0;
            return totalLength;
        }
        return 0;
    }

    private int reject()
    {
        rejected++;
        assembled = 0;
        totalLength = 0;
        return -1;
    }

    /**
     * Where a completed frame lies, from offset 0.
     *
     * @return the buffer.
     */
    public DirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * Whether part of a frame has arrived and the rest has not.
     *
     * @return true while a frame is in progress.
     */
    public boolean inProgress()
    {
        return assembled != 0;
    }

    /** Drops a frame in progress (e.g. its sender's session ended), and a large buffer with it. */
    public void reset()
    {
        assembled = 0;
        totalLength = 0;
        shrink();
    }

    /**
     * Lets a buffer larger than {@link #KEPT_BYTES} go, unless a frame is in progress: call it once a completed
     * frame has been read.
     */
    public void shrink()
    {
        if (assembled == 0 && buffer.capacity() > KEPT_BYTES)
        {
            buffer = new ExpandableArrayBuffer(4096);
        }
    }

    /**
     * Bytes the assembler holds now.
     *
     * @return the buffer's capacity.
     */
    public int capacity()
    {
        return buffer.capacity();
    }

    /**
     * Chunks rejected so far, and frames dropped unfinished.
     *
     * @return the count.
     */
    public long rejected()
    {
        return rejected;
    }
}
