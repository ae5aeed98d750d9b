package io.troupe.bench.pekko;

import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractMatchingBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * {@code local.fanin}'s target: counts what it receives and publishes the count for the producers and the
 * driver.
 */
final class FanInSink extends AbstractMatchingBehavior<Object>
{
    private final FanInLedger ledger;
    private long received;

    private FanInSink(final ActorContext<Object> context, final FanInLedger ledger)
    {
        super(context);
        this.ledger = ledger;
    }

    /**
     * The behaviour.
     *
     * @param ledger where the received count is published.
     * @return the behaviour.
     */
    static Behavior<Object> create(final FanInLedger ledger)
    {
        return Behaviors.setup(context -> new FanInSink(context, ledger));
    }

    @Override
    public Behavior<Object> onMessage(final Object message)
    {
        ledger.onReceived(++received);
        return this;
    }
}
