package io.troupe.actor;

/**
 * The 16-byte address of an actor: two longs in the layout of the original actor system.
 *
 * <pre>
 *  raw1: |                         local id (64)                         |
 *  raw2: |        hint (32)        |S|  pool id (11)  |   node id (20)   |
 *         63                     32 31 30           20 19               0
 * </pre>
 *
 * <p>The local id is unique per node and never reused, across restarts too: a start of a node hands out local ids
 * counting up from {@link #firstLocalId(long) its incarnation × 1024}, and every start's incarnation is larger than
 * the last's and than the wall clock in microseconds, so an id held from before a restart (by a peer, a client, a
 * broker's queue) names no actor of the new start: an event to it is {@code Undelivered(ACTOR_UNKNOWN)}, never
 * delivered to whichever actor took its mailbox. The top bit of the local id marks a reply slot (an ask's
 * stand-in). The hint is the index of the mailbox the actor lives on and may be reused once that mailbox is
 * vacant. Bit 31 marks a {@link ServiceId}. Node 0 means
 * "this node". Instances are immutable and safe to share between threads; comparing and routing never
 * allocates.
 */
public sealed class ActorId permits ServiceId
{
    /** Largest node id that fits the 20 node bits. */
    public static final int MAX_NODE_ID = (1 << 20) - 1;
    /** Largest pool id that fits the 11 pool bits. */
    public static final int MAX_POOL_ID = (1 << 11) - 1;
    /** The absent id: used as the sender of events sent from outside any actor. */
    public static final ActorId NONE = new ActorId(0, 0);

    /**
     * Local ids a start may hand out per microsecond that passes before the next start: a start of incarnation
     * {@code i} counts up from {@code i × 1024}, and the next start's incarnation is at least the wall clock then.
     */
    public static final long LOCAL_IDS_PER_INCARNATION_STEP = 1024;
    /** Largest incarnation whose {@link #firstLocalId(long) first local id} leaves room below the reply-slot bit. */
    public static final long MAX_INCARNATION = (1L << 53) - 1;

    static final long NODE_MASK = MAX_NODE_ID;
    static final int POOL_SHIFT = 20;
    static final long SERVICE_BIT = 1L << 31;
    static final int HINT_SHIFT = 32;

    private final long raw1;
    private final long raw2;

    ActorId(final long raw1, final long raw2)
    {
        this.raw1 = raw1;
        this.raw2 = raw2;
    }

    /**
     * An actor id in pool 0.
     *
     * @param nodeId  node the actor lives on, 0 for this node, at most {@link #MAX_NODE_ID}.
     * @param localId id unique on that node.
     * @param hint    index of the actor's mailbox.
     * @return the id.
     * @throws IllegalArgumentException if the node id is out of range.
     */
    public static ActorId of(final int nodeId, final long localId, final int hint)
    {
        return of(nodeId, localId, hint, 0);
    }

    /**
     * An actor id in the given pool.
     *
     * @param nodeId  node the actor lives on, 0 for this node, at most {@link #MAX_NODE_ID}.
     * @param localId id unique on that node.
     * @param hint    index of the actor's mailbox.
     * @param poolId  executor pool the mailbox is pinned to, at most {@link #MAX_POOL_ID}.
     * @return the id.
     * @throws IllegalArgumentException if the node or pool id is out of range.
     */
    public static ActorId of(final int nodeId, final long localId, final int hint, final int poolId)
    {
        checkNodeId(nodeId);
        if (poolId < 0 || poolId > MAX_POOL_ID)
        {
            throw new IllegalArgumentException("pool id " + poolId + " out of range 0.." + MAX_POOL_ID);
        }
        return new ActorId(localId, ((long)hint << HINT_SHIFT) | ((long)poolId << POOL_SHIFT) | nodeId);
    }

    /**
     * Rebuilds an id from its two raw longs, as read from a frame or a file.
     *
     * @param raw1 the first long (local id, or service name bytes 0-7).
     * @param raw2 the second long (hint, flags, pool and node).
     * @return an {@link ActorId}, or a {@link ServiceId} when the service bit is set.
     */
    public static ActorId fromRaw(final long raw1, final long raw2)
    {
        if ((raw2 & SERVICE_BIT) != 0)
        {
            return new ServiceId(raw1, raw2);
        }
        return new ActorId(raw1, raw2);
    }

    /**
     * This id on another node: the same local id (or service name), hint and pool, with {@code nodeId}'s bits.
     * Used to name the node of an id that says "this node" (0) before it leaves the node.
     *
     * @param nodeId the node, at most {@link #MAX_NODE_ID}.
     * @return the id on that node (this one if it already names it).
     * @throws IllegalArgumentException if the node id is out of range.
     */
    public ActorId onNode(final int nodeId)
    {
        checkNodeId(nodeId);
        return nodeId() == nodeId ? this : fromRaw(raw1, (raw2 & ~NODE_MASK) | nodeId);
    }

    /**
     * The first local id of a start: its incarnation × {@value #LOCAL_IDS_PER_INCARNATION_STEP}. Ids of one start
     * count up from there, so they stay below the next start's first id unless that start came less than
     * (ids handed out) / 1024 microseconds later by the incarnation's measure; incarnations are wall-clock
     * microseconds that only grow, so that takes over a billion actors and asks a second for the whole run.
     *
     * @param incarnation the start's incarnation, 1..{@link #MAX_INCARNATION} (microseconds since 1970 are below it
     *                    until the year 2255).
     * @return the first local id.
     * @throws IllegalArgumentException if the incarnation is out of range.
     */
    public static long firstLocalId(final long incarnation)
    {
        if (incarnation < 1 || incarnation > MAX_INCARNATION)
        {
            throw new IllegalArgumentException("incarnation " + incarnation + " out of range 1.." + MAX_INCARNATION);
        }
        return incarnation * LOCAL_IDS_PER_INCARNATION_STEP;
    }

    static void checkNodeId(final int nodeId)
    {
        if (nodeId < 0 || nodeId > MAX_NODE_ID)
        {
            throw new IllegalArgumentException("node id " + nodeId + " out of range 0.." + MAX_NODE_ID);
        }
    }

    /**
     * First raw long: the local id, or the first 8 name bytes of a service.
     *
     * @return raw1.
     */
    public final long raw1()
    {
        return raw1;
    }

    /**
     * Second raw long: hint, service flag, pool id and node id.
     *
     * @return raw2.
     */
    public final long raw2()
    {
        return raw2;
    }

    /**
     * Node the actor lives on; 0 means the local node.
     *
     * @return the node id.
     */
    public final int nodeId()
    {
        return (int)(raw2 & NODE_MASK);
    }

    /**
     * Id unique on the actor's node; never reused there.
     *
     * @return the local id.
     */
    public final long localId()
    {
        return raw1;
    }

    /**
     * Index of the actor's mailbox on its node. Meaningless to users; may be reused.
     *
     * @return the hint.
     */
    public final int hint()
    {
        return (int)(raw2 >>> HINT_SHIFT);
    }

    /**
     * Executor pool the actor's mailbox is pinned to.
     *
     * @return the pool id.
     */
    public final int poolId()
    {
        return (int)((raw2 >>> POOL_SHIFT) & MAX_POOL_ID);
    }

    /**
     * Whether this is a {@link ServiceId}.
     *
     * @return true for service ids.
     */
    public final boolean isService()
    {
        return (raw2 & SERVICE_BIT) != 0;
    }

    /**
     * Whether this is an ask's stand-in (a reply slot): it takes the first outcome of an ask made from outside any
     * actor, or by an actor, and passes away with it; whoever asked carries on (a plain thread holding what it was
     * granted, say). Its local id has the top bit set.
     *
     * @return true for a reply slot.
     */
    public final boolean isReplySlot()
    {
        return raw1 < 0 && (raw2 & SERVICE_BIT) == 0;
    }

    /**
     * Whether this is {@link #NONE}.
     *
     * @return true if both raw longs are zero.
     */
    public final boolean isNone()
    {
        return raw1 == 0 && raw2 == 0;
    }

    /**
     * Parses the form printed by {@link #toString()}: {@code [node:local:hint]}, {@code [node:local:hint:pool]}
     * or, for a service, {@code [node:@name]}.
     *
     * @param text the text to parse.
     * @return the id.
     * @throws IllegalArgumentException if the text is not an id, with the reason.
     */
    public static ActorId parse(final String text)
    {
        if (text == null || text.length() < 2 || text.charAt(0) != '[' || text.charAt(text.length() - 1) != ']')
        {
            throw new IllegalArgumentException("not an actor id (expected [node:local:hint]): " + text);
        }
        final String body = text.substring(1, text.length() - 1);
        final int firstColon = body.indexOf(':');
        if (firstColon < 0)
        {
            throw new IllegalArgumentException("not an actor id (expected [node:local:hint]): " + text);
        }
        final int nodeId = parseInt(body.substring(0, firstColon), "node id", text);
        if (firstColon + 1 < body.length() && body.charAt(firstColon + 1) == '@')
        {
            return ServiceId.of(nodeId, body.substring(firstColon + 2));
        }
        final String[] parts = body.substring(firstColon + 1).split(":", -1);
        if (parts.length != 2 && parts.length != 3)
        {
            throw new IllegalArgumentException("not an actor id (expected [node:local:hint]): " + text);
        }
        final long localId;
        try
        {
            localId = Long.parseUnsignedLong(parts[0]);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("bad local id in " + text, ex);
        }
        final int hint;
        try
        {
            hint = Integer.parseUnsignedInt(parts[1]);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("bad hint in " + text, ex);
        }
        final int poolId = parts.length == 3 ? parseInt(parts[2], "pool id", text) : 0;
        return of(nodeId, localId, hint, poolId);
    }

    private static int parseInt(final String value, final String what, final String text)
    {
        try
        {
            return Integer.parseInt(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("bad " + what + " in " + text, ex);
        }
    }

    @Override
    public final boolean equals(final Object o)
    {
        if (this == o)
        {
            return true;
        }
        return o instanceof ActorId && ((ActorId)o).raw1 == raw1 && ((ActorId)o).raw2 == raw2;
    }

    @Override
    public final int hashCode()
    {
        final long h = raw1 * 0x9E3779B97F4A7C15L ^ raw2;
        return (int)(h ^ (h >>> 32));
    }

    /**
     * {@code [node:local:hint]}, with {@code :pool} appended when the pool is not 0.
     *
     * @return the printable, parseable form.
     */
    @Override
    public String toString()
    {
        final String base = "[" + nodeId() + ':' + Long.toUnsignedString(raw1) + ':' + Integer.toUnsignedString(hint());
        return poolId() == 0 ? base + ']' : base + ':' + poolId() + ']';
    }
}
