package io.troupe.bench;

import io.troupe.actor.ActorContext;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;

/**
 * The fan-in target: counts what it receives and publishes the count for producers and the driver.
 */
final class Sink implements Behavior
{
    private final FanInLedger ledger;
    private long received;

    /**
     * Creates the actor.
     *
     * @param ledger where the received count is published.
     */
    Sink(final FanInLedger ledger)
    {
        this.ledger = ledger;
    }

    @Override
    public void receive(final ActorContext ctx, final Envelope envelope)
    {
        ledger.onReceived(++received);
    }
}
