package io.troupe.interconnect;

import io.troupe.actor.Envelope;
import io.troupe.actor.Chargeable;
import io.troupe.serialization.wire.EnvelopeCompaction;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Envelope frames for a peer's data stream, packed into one Aeron message so that small events share a
 * datagram (and a send, a receive and a poll) instead of each paying for their own. The message is a sequence
 * of {@code int32 length (little-endian), frame} entries, at least one; a frame larger than the packing limit
 * travels alone.
 *
 * <p>An entry whose length has its top bit ({@link #COMPACT_FLAG}) set is a compact envelope frame
 * ({@link EnvelopeCompaction}): the frame repeats the base, the last whole entry of the message if that is an
 * envelope frame, in everything but its cookie and payload, so only those are sent. A stream of small events
 * from one actor to another thus takes 36 bytes per 24-byte event rather than 100, and about three times as
 * many events share a datagram. Agent thread only.
 */
final class OutboundBatch
{
    /** Bytes of the length before each frame. */
    static final int LENGTH_PREFIX = Integer.BYTES;
    /** Set in an entry's length: the entry is a compact envelope frame. */
    static final int COMPACT_FLAG = 0x8000_0000;

    private final UnsafeBuffer buffer;
    private final int packLimit;
    private final List<Envelope> tracked = new ArrayList<>();
    /** Accounts and costs of the charged frames, copied so that a frame can go back to its pool once added. */
    private Chargeable[] chargedAccounts = new Chargeable[64];
    private int[] chargedCosts = new int[64];
    private int charged;
    private int[] buckets = new int[64];
    private int length;
    private int frames;
    /** Sum of the whole frames' lengths, compact ones counted as the frames they stand for. */
    private long frameBytes;
    /** Where the base (the last whole entry, if an envelope frame) starts in the buffer, -1 if none. */
    private int baseAt = -1;
    /** The frame {@link #accepts} last judged against the current base, so {@link #add} need not compare again. */
    private OutboundFrame judged;
    private boolean judgedCompact;

    /**
     * A batch.
     *
     * @param packLimit   the most bytes several frames are packed into (the publication's largest unfragmented
     *                    message).
     * @param largestFrame the largest frame the data stream carries (travels alone).
     */
    OutboundBatch(final int packLimit, final int largestFrame)
    {
        this.packLimit = packLimit;
        this.buffer = new UnsafeBuffer(new byte[Math.max(packLimit, LENGTH_PREFIX + largestFrame)]);
    }

    /** Whether the frame may join: it fits, or the batch is empty (then it travels alone if it must). */
    boolean accepts(final OutboundFrame frame)
    {
        if (frames == 0)
        {
            return true;
        }
        judged = frame;
        judgedCompact = repeatsBase(frame);
        return length + LENGTH_PREFIX +
            (judgedCompact ? EnvelopeCompaction.compactLength(frame.length) : frame.length) <= packLimit;
    }

    /** Whether the frame may go compact: it repeats the base but for its cookie and payload. */
    private boolean repeatsBase(final OutboundFrame frame)
    {
        return baseAt >= 0 && frame.length >= EnvelopeCompaction.FIXED_LENGTH &&
            EnvelopeCompaction.repeatsHeader(frame.bytes, buffer.byteArray(), baseAt);
    }

    void add(final OutboundFrame frame, final int bucket)
    {
        final int at = length + LENGTH_PREFIX;
        final boolean compact = frame == judged ? judgedCompact : repeatsBase(frame);
        judged = null;
        if (compact)
        {
            final int compactLength = EnvelopeCompaction.writeCompact(buffer, at, frame.bytes, frame.length);
            buffer.putInt(length, compactLength | COMPACT_FLAG, ByteOrder.LITTLE_ENDIAN);
            length = at + compactLength;
        }
        else
        {
            buffer.putInt(length, frame.length, ByteOrder.LITTLE_ENDIAN);
            buffer.putBytes(at, frame.bytes, 0, frame.length);
            baseAt = EnvelopeCompaction.isBase(buffer, at, frame.length) ? at : -1;
            length = at + frame.length;
        }
        frameBytes += frame.length;
        if (frame.tracked != null)
        {
            tracked.add(frame.tracked);
        }
        if (frame.account != null)
        {
            if (charged == chargedAccounts.length)
            {
                chargedAccounts = Arrays.copyOf(chargedAccounts, charged * 2);
                chargedCosts = Arrays.copyOf(chargedCosts, charged * 2);
            }
            chargedAccounts[charged] = frame.account;
            chargedCosts[charged++] = frame.cost;
        }
        if (frames == buckets.length)
        {
            buckets = Arrays.copyOf(buckets, frames * 2);
        }
        buckets[frames++] = bucket;
    }

    boolean isEmpty()
    {
        return frames == 0;
    }

    UnsafeBuffer buffer()
    {
        return buffer;
    }

    int length()
    {
        return length;
    }

    int frames()
    {
        return frames;
    }

    /** The frames' own bytes, without their lengths, a compact frame counted as the whole frame it stands for. */
    long frameBytes()
    {
        return frameBytes;
    }

    int bucket(final int index)
    {
        return buckets[index];
    }

    List<Envelope> tracked()
    {
        return tracked;
    }

    /**
     * How many frames in the batch are charged to a credit account, whose cost is handed on when the batch is
     * written or repaid if it is dropped.
     *
     * @return the count.
     */
    int chargedCount()
    {
        return charged;
    }

    /**
     * The account of a charged frame.
     *
     * @param index 0 to {@link #chargedCount()} - 1, in batch order.
     * @return the account.
     */
    Chargeable chargedAccount(final int index)
    {
        return chargedAccounts[index];
    }

    /**
     * The cost of a charged frame.
     *
     * @param index 0 to {@link #chargedCount()} - 1, in batch order.
     * @return the cost.
     */
    int chargedCost(final int index)
    {
        return chargedCosts[index];
    }

    void clear()
    {
        tracked.clear();
        Arrays.fill(chargedAccounts, 0, charged, null);
        charged = 0;
        length = 0;
        frames = 0;
        frameBytes = 0;
        baseAt = -1;
        judged = null;
    }
}
