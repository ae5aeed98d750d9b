package io.troupe.memquota;

/** Why a {@link MemoryQueue} collapsed. */
public enum CollapseReason
{
    /** The memory quota reclaimed it: it held the oldest data while the node was over its quota. */
    MEMORY_RECLAIMED,
    /** Its receiver was closed. */
    RECEIVER_DROPPED
}
