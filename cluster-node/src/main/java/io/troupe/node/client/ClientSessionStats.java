package io.troupe.node.client;

import io.troupe.actor.CreditAccount;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One open client session as any thread may read it (the node's counters thread, {@code troupe sessions}): who the
 * client is and what its session has done. The client ingress's thread writes the counts with ordered stores.
 */
public final class ClientSessionStats
{
    private static final int EVENTS_IN = 0;
    private static final int ASKS_IN = 1;
    private static final int MESSAGES_OUT = 2;
    private static final int ASKS_PENDING = 3;

    private final int clientId;
    private final long clientIncarnation;
    private final int sessionId;
    private final String endpoint;
    private final AtomicLongArray counts = new AtomicLongArray(4);
    private volatile CreditAccount account;

    ClientSessionStats(final int clientId, final long clientIncarnation, final int sessionId, final String endpoint)
    {
        this.clientId = clientId;
        this.clientIncarnation = clientIncarnation;
        this.sessionId = sessionId;
        this.endpoint = endpoint;
    }

    void account(final CreditAccount account)
    {
        this.account = account;
    }

    void eventIn()
    {
        counts.lazySet(EVENTS_IN, counts.get(EVENTS_IN) + 1);
    }

    void askIn()
    {
        counts.lazySet(ASKS_IN, counts.get(ASKS_IN) + 1);
    }

    void messageOut()
    {
        counts.lazySet(MESSAGES_OUT, counts.get(MESSAGES_OUT) + 1);
    }

    void asksPending(final int pending)
    {
        counts.lazySet(ASKS_PENDING, pending);
    }

    /**
     * The client's id, as it gave it at the handshake.
     *
     * @return the id.
     */
    public int clientId()
    {
        return clientId;
    }

    /**
     * The client process's incarnation.
     *
     * @return the incarnation.
     */
    public long clientIncarnation()
    {
        return clientIncarnation;
    }

    /**
     * The session's id on this node (its Aeron session id): unique among the sessions open at once.
     *
     * @return the id.
     */
    public int sessionId()
    {
        return sessionId;
    }

    /**
     * Where the client's frames come from.
     *
     * @return "host:port".
     */
    public String endpoint()
    {
        return endpoint;
    }

    /**
     * Events the client sent in (asks included).
     *
     * @return the count.
     */
    public long eventsIn()
    {
        return counts.get(EVENTS_IN);
    }

    /**
     * Asks the client sent in.
     *
     * @return the count.
     */
    public long asksIn()
    {
        return counts.get(ASKS_IN);
    }

    /**
     * Messages sent to the client (each may carry several replies and notices).
     *
     * @return the count.
     */
    public long messagesOut()
    {
        return counts.get(MESSAGES_OUT);
    }

    /**
     * Asks of this client waiting for their reply now.
     *
     * @return the count.
     */
    public long asksPending()
    {
        return counts.get(ASKS_PENDING);
    }

    /**
     * The debt of the session's credit account: what its events cost and their handlers have not yet repaid.
     *
     * @return the debt, 0 before the session opened.
     */
    public long debt()
    {
        final CreditAccount now = account;
        return now == null ? 0 : now.debt();
    }
}
