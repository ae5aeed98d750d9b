package io.troupe.actor;

/**
 * The queue a mailbox is built on. In both, writers and the reader never block each other.
 */
public enum MailboxType
{
    /** Intrusive lock-free MPSC list: the cheapest send when few threads send to the mailbox at once. */
    SIMPLE,
    /** Wait-free segmented MPSC array: for heavy traffic from many concurrent senders. */
    REVOLVING
}
