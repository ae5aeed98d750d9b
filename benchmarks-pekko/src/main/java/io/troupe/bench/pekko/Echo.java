package io.troupe.bench.pekko;

import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractMatchingBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * {@code remote.rtt}'s responder, on the child's node: replies to each {@link Ping} (decoded by
 * {@link BenchSerializer}) with it, to the pinger named by {@link EchoTo}.
 */
final class Echo extends AbstractMatchingBehavior<EchoMessage>
{
    private ActorRef<Ping> pinger;

    private Echo(final ActorContext<EchoMessage> context)
    {
        super(context);
    }

    /**
     * The behaviour.
     *
     * @return the behaviour.
     */
    static Behavior<EchoMessage> create()
    {
        return Behaviors.setup(Echo::new);
    }

    @Override
    public Behavior<EchoMessage> onMessage(final EchoMessage message)
    {
        if (message instanceof Ping ping)
        {
            pinger.tell(ping);
        }
        else if (message instanceof EchoTo echoTo)
        {
            pinger = echoTo.pinger();
        }
        return this;
    }
}
