package io.troupe.interconnect;

import io.troupe.actor.Envelope;

import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * Tracked envelopes sent on one stream of a session and not yet covered by the peer's cumulative ack, in
 * stream-position order (the agent offers them in that order). Agent thread only.
 */
final class InFlight
{
    private final ArrayDeque<Envelope> envelopes = new ArrayDeque<>();
    private long[] positions = new long[64];
    private int head;
    private int tail;

    void add(final long position, final Envelope envelope)
    {
        if (tail - head == positions.length)
        {
            grow();
        }
        positions[tail & (positions.length - 1)] = position;
        tail++;
        envelopes.addLast(envelope);
    }

    /** The peer has everything up to {@code ackedPosition}: forget what that covers. Returns how many. */
    int acknowledge(final long ackedPosition)
    {
        int count = 0;
        while (head != tail && positions[head & (positions.length - 1)] <= ackedPosition)
        {
            head++;
            envelopes.pollFirst();
            count++;
        }
        return count;
    }

    /** The session died: hands every unacknowledged envelope to {@code onLost} and forgets them. */
    int failAll(final Consumer<Envelope> onLost)
    {
        int count = 0;
        Envelope envelope;
        while ((envelope = envelopes.pollFirst()) != null)
        {
            onLost.accept(envelope);
            count++;
        }
        head = tail = 0;
        return count;
    }

    int size()
    {
        return tail - head;
    }

    private void grow()
    {
        final long[] bigger = new long[positions.length * 2];
        for (int i = head; i != tail; i++)
        {
            bigger[i - head] = positions[i & (positions.length - 1)];
        }
        tail -= head;
        head = 0;
        positions = bigger;
    }
}
