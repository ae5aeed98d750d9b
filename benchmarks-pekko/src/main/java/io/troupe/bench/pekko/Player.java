package io.troupe.bench.pekko;

import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractMatchingBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * One side of a {@code local.pingpong} pair: sends the shared ball straight back to its partner and counts it.
 * Typed actors have no sender, so each player is told its partner once ({@link Partner}) before the ball
 * arrives. {@link #STOP} ends the bouncing before the system is terminated (see {@link PingPongWorkload}).
 *
 * <p>{@link AbstractMatchingBehavior} is Pekko's Java behaviour with a single {@code onMessage}, without the
 * receive builder's list of cases: the least dispatch overhead the Java API offers.
 */
final class Player extends AbstractMatchingBehavior<Object>
{
    /** The one message every pair bounces: shared and immutable, so a send allocates only its envelope. */
    static final String BALL = "ball";
    /** Makes a player ignore everything after it, so that its pair's ball stops (sent by the driver). */
    static final String STOP = "stop";

    private final HandledCounters counters;
    private final int slot;
    private ActorRef<Object> partner;
    private long handled;

    /**
     * Tells a player where to send the ball.
     *
     * @param partner the other player of the pair.
     */
    record Partner(ActorRef<Object> partner)
    {
    }

    private Player(final ActorContext<Object> context, final HandledCounters counters, final int slot)
    {
        super(context);
        this.counters = counters;
        this.slot = slot;
    }

    /**
     * The behaviour.
     *
     * @param counters where the player publishes its count.
     * @param slot     its slot there.
     * @return the behaviour.
     */
    static Behavior<Object> create(final HandledCounters counters, final int slot)
    {
        return Behaviors.setup(context -> new Player(context, counters, slot));
    }

    @Override
    public Behavior<Object> onMessage(final Object message)
    {
        if (message == BALL)
        {
            partner.tell(BALL);
            counters.publish(slot, ++handled);
        }
        else if (message instanceof Partner p)
        {
            partner = p.partner();
        }
        else if (message == STOP)
        {
            return Behaviors.ignore();
        }
        return this;
    }
}
