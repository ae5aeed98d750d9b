package io.troupe.broker;

import io.troupe.actor.ActorId;

import java.util.function.Consumer;

/**
 * One side of a broker (its {@code ask} or {@code askR} queue) under a policy: which request is matched next
 * and which are dropped, and when. A queue is owned by its broker's actor: single-threaded, never blocking.
 * Time is passed in (monotonic nanoseconds, possibly read once per batch), so policies are deterministic and
 * testable with a scripted clock.
 *
 * <p>Every request that leaves a queue leaves it exactly once: matched ({@link #dequeue}), dropped (through a
 * {@link DropSink}), cancelled ({@link #cancel}), or handed over on reconfiguration ({@link #drainTo}).
 */
public interface RequestQueue
{
    /**
     * Queues a request that just arrived (no counterparty was waiting). The policy may drop requests to make
     * room, this one included.
     *
     * @param request the request.
     * @param nowNs   the broker's clock.
     * @param drops   receives dropped requests.
     */
    void enqueue(BrokerRequest request, long nowNs, DropSink drops);

    /**
     * Takes the request to match with a counterparty that just arrived, after dropping what the policy drops
     * at this time.
     *
     * @param nowNs the broker's clock.
     * @param drops receives dropped requests.
     * @return the request, removed from the queue; null if none is left.
     */
    BrokerRequest dequeue(long nowNs, DropSink drops);

    /**
     * Lets time pass without an arrival or a match: drops what the policy drops by {@code nowNs} (timeouts,
     * CoDel). The broker calls it at {@link #nextExpiryNs} and after each batch of messages.
     *
     * @param nowNs the broker's clock.
     * @param drops receives dropped requests.
     */
    void expire(long nowNs, DropSink drops);

    /**
     * When {@link #expire} should next be called even if nothing arrives.
     *
     * @param nowNs the broker's clock.
     * @return a time on the broker's clock, or {@link Long#MAX_VALUE} if only arrivals change anything.
     */
    long nextExpiryNs(long nowNs);

    /**
     * Removes a request by the requester and its reference; no {@code Drop} is sent for it.
     *
     * @param requester the requester's id.
     * @param ref       the requester's reference.
     * @return the request removed, or null if it is not queued.
     */
    BrokerRequest cancel(ActorId requester, long ref);

    /**
     * When the oldest queued request was sent (for meters: the queue's current sojourn).
     *
     * @return its {@link BrokerRequest#sentNs()}, or {@link Long#MIN_VALUE} if the queue is empty.
     */
    long oldestSentNs();

    /**
     * Requests queued now.
     *
     * @return the count.
     */
    int size();

    /**
     * Removes every request, handing them over oldest first (by {@link BrokerRequest#sentNs()}, ties in
     * queue order): for a reconfiguration, which {@link #adopt adopts} them into the new queue.
     *
     * @param out receives the requests.
     */
    void drainTo(Consumer<BrokerRequest> out);

    /**
     * Takes over a request from the queue this one replaces, keeping its times, without dropping anything:
     * the policy applies from the next call on. Called oldest first.
     *
     * @param request the request.
     */
    void adopt(BrokerRequest request);
}
