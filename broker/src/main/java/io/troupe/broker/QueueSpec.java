package io.troupe.broker;

/**
 * The configuration of a queue policy: immutable, creates a fresh empty queue. Replacing a broker queue's
 * spec keeps its requests: the broker drains the old queue into the new one ({@link RequestQueue#adopt}).
 */
@FunctionalInterface
public interface QueueSpec
{
    /**
     * A new, empty queue with this configuration.
     *
     * @return the queue.
     */
    RequestQueue newQueue();
}
