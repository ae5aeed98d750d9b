package io.troupe.broker;

import io.troupe.actor.ActorId;

/**
 * Chooses one of several brokers (possibly on different nodes) for each request, and learns from the answers.
 * Thread safe: asked from any thread or actor.
 */
public interface Balancer
{
    /**
     * The broker the next request goes to.
     *
     * @return one of the balancer's brokers.
     */
    ActorId pick();

    /**
     * The answer a broker gave ({@link Go} or {@link Drop}), so the balancer can prefer faster brokers.
     *
     * @param broker the broker that answered (as returned by {@link #pick()}).
     * @param answer its {@link Go} or {@link Drop}; anything else is ignored.
     */
    void onAnswer(ActorId broker, Object answer);
}
