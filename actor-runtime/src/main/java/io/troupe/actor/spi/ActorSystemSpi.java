package io.troupe.actor.spi;

import io.troupe.actor.Terminated;
import io.troupe.actor.TerminationReason;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.Envelope;
import io.troupe.actor.FlowControl;
import io.troupe.actor.UndeliveredReason;

/**
 * The side of an actor system that transports use, not applications: the interconnect attaches itself here as the
 * carrier to other nodes, and hands in the envelopes that arrive from them; a client ingress hands in its clients'.
 * Applications send with {@link ActorSystem#send(ActorId, Object)} and its siblings.
 *
 * <p>Thread safety: every method is safe from any thread; {@link #send} never blocks.
 */
public interface ActorSystemSpi
{
    /**
     * The transport side of an actor system.
     *
     * @param system a running actor system of this runtime.
     * @return its transport side.
     * @throws IllegalArgumentException if the system is not one of this runtime (a test double, say).
     */
    static ActorSystemSpi of(final ActorSystem system)
    {
        if (system instanceof ActorSystemSpi spi)
        {
            return spi;
        }
        throw new IllegalArgumentException("not an actor system of the Troupe runtime: " + system.getClass().getName());
    }

    /**
     * Attaches the transport to other nodes (the interconnect does this when it starts). Until one is attached,
     * and after {@link #detachRemote}, every send to another node is undeliverable as
     * {@link UndeliveredReason#DISCONNECTED}.
     *
     * @param transport the transport.
     * @throws IllegalStateException if another transport is attached.
     */
    void attachRemote(RemoteTransport transport);

    /**
     * Detaches the transport to other nodes, if it is the one attached.
     *
     * @param transport the transport.
     */
    void detachRemote(RemoteTransport transport);

    /**
     * The attached transport to other nodes.
     *
     * @return the transport, or null.
     */
    RemoteTransport remote();

    /**
     * Sends a prepared envelope from outside any actor: one that arrived from another node or a client. An envelope
     * not yet charged to an account is charged to the node's own account (see {@link FlowControl#nodeAccount()})
     * with its type's cost.
     *
     * @param envelope the envelope; must not have been sent before.
     * @return false if the system is shutting down and refused the event (its cost is repaid).
     */
    boolean send(Envelope envelope);

    /**
     * A node is gone for good: it shut down, was downed or left, was removed from the peers, or came back as a new
     * incarnation. Every watch this node's actors hold of its actors ends with a {@link Terminated} of the reason
     * (the transport and the membership call it; a node's session that only went down is not gone: its watches are
     * asked again when it is back).
     *
     * @param nodeId the node.
     * @param reason why it is gone.
     */
    void nodeGone(int nodeId, TerminationReason reason);
}
