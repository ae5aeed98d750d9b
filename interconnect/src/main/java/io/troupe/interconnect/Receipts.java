package io.troupe.interconnect;

import io.troupe.actor.WirePayload;

/**
 * Tracked envelopes received on one stream of a session that the actor system is not done with yet, in stream
 * order, each with the stream position before it. The cumulative ack never passes the first of them: an ack
 * tells the sender that the events it covers were handled (or reported undelivered) here, so that a node
 * killed with events still in its mailboxes leaves them unacknowledged, and their senders report them, rather
 * than losing them silently. Agent thread only.
 */
final class Receipts
{
    private WirePayload[] payloads = new WirePayload[64];
    private long[] positionsBefore = new long[64];
    private int head;
    private int tail;

    /** A tracked envelope arrived; {@code positionBefore} is the stream position where its frame began. */
    void add(final long positionBefore, final WirePayload payload)
    {
        if (tail - head == payloads.length)
        {
            grow();
        }
        final int index = tail & (payloads.length - 1);
        payloads[index] = payload;
        positionsBefore[index] = positionBefore;
        tail++;
    }

    /**
     * Forgets the settled envelopes at the head, and returns how far the stream may be acknowledged: up to the
     * first envelope still unsettled, else everything received.
     *
     * @param receivedPosition the stream position after the last frame taken.
     * @return the position to acknowledge.
     */
    long ackable(final long receivedPosition)
    {
        while (head != tail)
        {
            final int index = head & (payloads.length - 1);
            if (!payloads[index].isSettled())
            {
                return positionsBefore[index];
            }
            payloads[index] = null;
            head++;
        }
        return receivedPosition;
    }

    /** The session ended: its receipts no longer matter. */
    void clear()
    {
        while (head != tail)
        {
            payloads[head & (payloads.length - 1)] = null;
            head++;
        }
        head = tail = 0;
    }

    int size()
    {
        return tail - head;
    }

    private void grow()
    {
        final WirePayload[] biggerPayloads = new WirePayload[payloads.length * 2];
        final long[] biggerPositions = new long[payloads.length * 2];
        for (int i = head; i != tail; i++)
        {
            biggerPayloads[i - head] = payloads[i & (payloads.length - 1)];
            biggerPositions[i - head] = positionsBefore[i & (payloads.length - 1)];
        }
        tail -= head;
        head = 0;
        payloads = biggerPayloads;
        positionsBefore = biggerPositions;
    }
}
