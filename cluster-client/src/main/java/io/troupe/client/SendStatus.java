package io.troupe.client;

/**
 * What became of a {@link TroupeClient#send}: the send never blocks past its timeout, and never buffers without bound.
 */
public enum SendStatus
{
    /** Taken: it goes to the node in order with the client's other sends. */
    OK,
    /**
     * Not taken: the send buffer is full, because the node reads this client no faster (its credit account is in
     * debt) or the network is slower. Try again later.
     */
    BACK_PRESSURED,
    /** Not taken: the client has no session now (it is connecting to another node). */
    NOT_CONNECTED,
    /** Not taken: the client is closed. */
    CLOSED
}
