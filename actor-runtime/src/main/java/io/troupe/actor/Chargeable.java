package io.troupe.actor;

/**
 * What an envelope's cost is charged to: a {@link CreditAccount} of this node, or this node's shadow of an
 * account of another node. Thread-safe: any thread may charge or repay.
 */
public interface Chargeable
{
    /**
     * The node that owns the account.
     *
     * @return its node id.
     */
    int ownerNode();

    /**
     * The account's id on its owner node.
     *
     * @return the id.
     */
    long accountId();

    /**
     * Borrows credit: the account's debt grows by the cost. The runtime calls this when it sends an envelope
     * charged to the account.
     *
     * @param cost 0 or more.
     */
    void charge(long cost);

    /**
     * Repays credit: the account's debt falls by the cost. The runtime calls this, once per envelope, when the
     * envelope's recipient has handled it or the envelope has left the node some other way.
     *
     * @param cost 0 or more.
     */
    void repay(long cost);
}
