package io.troupe.broker;

/** Which request a full queue drops to stay within its maximum length. */
public enum DropEnd
{
    /** The oldest queued request (the new one is queued). */
    HEAD,
    /** The newest: the request that just arrived is dropped. */
    TAIL
}
