package io.troupe.broker;

/** Which queued request a match takes. */
public enum ServeOrder
{
    /** The oldest: first in, first out. */
    FIFO,
    /** The newest: last in, first out. */
    LIFO
}
