package io.troupe.actor.mailbox;

/**
 * A queue element that says who pushed it and in which order.
 */
final class TestNode extends Node
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
