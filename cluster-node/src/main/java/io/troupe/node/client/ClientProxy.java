package io.troupe.node.client;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import io.troupe.actor.FundsCleared;

/**
 * A client session's stand-in among the node's actors: the sender of every event its client sends, so replies,
 * {@code Undelivered} notices and service notices come back to it, and it hands them to the ingress agent for the
 * client. It also hears when the session's account clears ({@code FundsCleared}) and wakes the agent to read the
 * client again. It watches the actors its client's asks go to (see {@link AskTargets}) and hands their Terminated to
 * the agent. It passes away when the session ends.
 */
final class ClientProxy implements Behavior
{
    /** Sent by the agent when the session ends. */
    static final Object STOP = new Object()
    {
        @Override
        public String toString()
        {
            return "ClientProxy.STOP";
        }
    };

    /**
     * Sent by the agent for the first ask of the session to an actor: the proxy watches it, and hands its Terminated
     * to the agent, which fails the asks still waiting for it.
     *
     * @param target the actor asked.
     */
    record Watch(ActorId target)
    {
    }

    private final ClientIngressAgent agent;
    private final ClientSession session;

    ClientProxy(final ClientIngressAgent agent, final ClientSession session)
    {
        this.agent = agent;
        this.session = session;
    }

    @Override
    public void receive(final ActorContext ctx, final Envelope envelope)
    {
        if (envelope.payload() == null)
        {
            final Object event = envelope.event();
            if (event == STOP)
            {
                ctx.passAway();
                return;
            }
            if (event instanceof FundsCleared)
            {
                agent.waker.run();
                return;
            }
            if (event instanceof Watch watch)
            {
                ctx.watch(watch.target());
                return;
            }
        }
        agent.handOff(session, envelope);
    }
}
