package io.troupe.actor;


import java.time.Duration;
import java.util.Objects;

/**
 * The ingress pattern: an actor that reads one external source (a socket, an Aeron image, a file) in small
 * batches and turns what it reads into events, billed to the source's own {@link CreditAccount}. Before every
 * batch it calls {@link ActorContext#ensureClearFunds}; while the account is in debt it reads nothing and waits
 * for {@link FundsCleared}, so the source backs up and pushes back on whoever feeds it (for an Aeron image the
 * receiver window closes and the remote publisher is back-pressured; for a socket the TCP window closes). No
 * thread ever blocks.
 *
 * <p>Subclasses implement {@link #poll}: read at most {@code limit} items and send an event for each with
 * {@code ctx.send}, which is charged to the source's account. Start the ingress by sending it {@link #POLL}.
 * After a batch that read something it polls again at once (through its own mailbox, so other actors on the
 * pool get their turn); after an empty one, after {@code idleDelay}.
 */
public abstract class PollingIngress implements Behavior
{
    /** The event that makes the ingress read a batch; send it once to start. */
    public static final Object POLL = new Object()
    {
        @Override
        public String toString()
        {
            return "PollingIngress.POLL";
        }
    };
    /** Type id of {@link #POLL}, in the system space. */
    public static final int POLL_TYPE = EventTypes.typeId(EventTypes.SPACE_SYSTEM, 5);

    private final CreditAccount account;
    private final int batch;
    private final Duration idleDelay;
    private boolean waiting;
    private boolean pollQueued;
    private long stops;

    /**
     * An ingress for one source.
     *
     * @param account   the source's account.
     * @param batch     items read per poll at most, 1 or more.
     * @param idleDelay how long to wait after a poll that read nothing.
     */
    protected PollingIngress(final CreditAccount account, final int batch, final Duration idleDelay)
    {
        this.account = Objects.requireNonNull(account, "account");
        if (batch < 1)
        {
            throw new IllegalArgumentException("ingress batch must be 1 or more, was " + batch);
        }
        this.batch = batch;
        this.idleDelay = Objects.requireNonNull(idleDelay, "idleDelay");
    }

    /**
     * Reads up to {@code limit} items from the source and sends an event for each.
     *
     * @param ctx   the context; its sends are charged to the source's account.
     * @param limit items to read at most.
     * @return items read.
     */
    protected abstract int poll(ActorContext ctx, int limit);

    /**
     * Handles an event that is neither a poll nor {@link FundsCleared}; ignores it by default.
     *
     * @param ctx      the context.
     * @param envelope the event.
     */
    protected void onOther(final ActorContext ctx, final Envelope envelope)
    {
    }

    /**
     * The source's account.
     *
     * @return the account.
     */
    public final CreditAccount account()
    {
        return account;
    }

    /**
     * Times the ingress found its account in debt and stopped reading (only the ingress's thread may read).
     *
     * @return the count.
     */
    protected final long stops()
    {
        return stops;
    }

    @Override
    public final void receive(final ActorContext ctx, final Envelope envelope)
    {
        final Object event = envelope.event();
        if (event == POLL)
        {
            pollQueued = false;
        }
        else if (event instanceof FundsCleared)
        {
            waiting = false;
        }
        else
        {
            onOther(ctx, envelope);
            return;
        }
        if (waiting || pollQueued)
        {
            return; // a FundsCleared or a poll is already on its way
        }
        if (!ctx.ensureClearFunds(account))
        {
            waiting = true; // read nothing until FundsCleared
            stops++;
            return;
        }
        ctx.chargeTo(account);
        final int read = poll(ctx, batch);
        pollQueued = true;
        if (read > 0)
        {
            ctx.send(ctx.self(), POLL, POLL_TYPE, 0, 0L, null, 0);
        }
        else
        {
            ctx.schedule(idleDelay, POLL, POLL_TYPE, null);
        }
    }
}
