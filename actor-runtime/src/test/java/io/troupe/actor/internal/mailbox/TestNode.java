package io.troupe.actor.internal.mailbox;

import io.troupe.actor.QueueLink;

/**
 * A queue element that says who pushed it and in which order.
 */
final class TestNode extends QueueLink
{
    final int producer;
    final int sequence;

    TestNode(final int producer, final int sequence)
    {
        this.producer = producer;
        this.sequence = sequence;
    }

    @Override
    public String toString()
    {
        return "TestNode{" + producer + ':' + sequence + '}';
    }
}
