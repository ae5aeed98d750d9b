package io.troupe.actor.spi;

import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.NodeConnected;
import io.troupe.actor.NodeDisconnected;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredReason;

/**
 * Carries envelopes to other nodes: the interconnect implements it and attaches itself with
 * {@link ActorSystemSpi#attachRemote}. The router calls {@link #send} for every envelope whose recipient (actor
 * or service) lives on another node, on the sending thread: it must not block.
 */
public interface RemoteTransport
{
    /**
     * Takes an envelope for another node.
     *
     * @param envelope the envelope; its recipient's node is not this one.
     * @return null if the transport accepted the envelope and now answers for its delivery (delivered, or an
     *     {@link Undelivered} to its sender); otherwise why it cannot be delivered, for the router to report
     *     as for a local non-delivery.
     * @throws IllegalArgumentException if the event can never be sent (no codec for its type, larger than the
     *                                  largest event allowed): a programming error, reported to the sender.
     */
    UndeliveredReason send(Envelope envelope);

    /**
     * Subscribes an actor to the session with a node: it receives {@link NodeConnected} when the session is
     * up (at once if it is up now) and {@link NodeDisconnected} when it goes down, once per change, until it
     * unsubscribes or passes away (an undeliverable notice ends the subscription).
     *
     * @param nodeId     the node.
     * @param subscriber the actor told.
     */
    void subscribe(int nodeId, ActorId subscriber);

    /**
     * Ends a subscription; no-op if there is none.
     *
     * @param nodeId     the node.
     * @param subscriber the actor.
     */
    void unsubscribe(int nodeId, ActorId subscriber);
}
