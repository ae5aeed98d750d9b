package io.troupe.broker;

/** One of a broker's two queues. */
public enum Side
{
    /** The {@code ask} queue: clients (for a regulator, the regulated requests). */
    ASK,
    /** The {@code askR} queue: workers (for a regulator, the valve). */
    ASK_R;

    /**
     * The queue a request of this side is matched against.
     *
     * @return the other side.
     */
    public Side other()
    {
        return this == ASK ? ASK_R : ASK;
    }
}
