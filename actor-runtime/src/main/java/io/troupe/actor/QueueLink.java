package io.troupe.actor;

/**
 * The link the runtime's lock-free queues keep inside each element they hold, so that enqueueing allocates
 * nothing: envelopes are linked into mailboxes this way, and the runtime's mailboxes into run queues. It has no
 * members to use: the runtime reaches the link through a private lookup, and nothing outside the runtime should
 * extend this class.
 */
public abstract class QueueLink
{
    @SuppressWarnings("unused") // reached by the runtime's queues through a private lookup
    private QueueLink next;

    /**
     * Creates an unlinked element.
     */
    protected QueueLink()
    {
    }
}
