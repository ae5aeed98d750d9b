package io.troupe.actor;

/**
 * Event type ids are allocated in spaces of 65,536 ids: {@code typeId = space << 16 | index}. Troupe's own
 * subsystems use the spaces below {@link #SPACE_USER_FIRST}; applications use spaces from it upwards.
 */
public final class EventTypes
{
    /**
     * Type id 0: "the type of the event's class". A send with it (every typed send, and untyped sends that name no
     * type) is encoded for another node by the codec registered for the event's class, whose type id the frame
     * then carries; within a node the type id is not needed. No codec may be registered under it.
     */
    public static final int BY_CLASS = 0;
    /** Runtime events: {@link Undelivered}, {@link Poison}, {@link MailboxCollapsed}. */
    public static final int SPACE_SYSTEM = 0;
    /** Interconnect events: {@link NodeConnected}, {@link NodeDisconnected}. */
    public static final int SPACE_INTERCONNECT = 1;
    /** Service registry events. */
    public static final int SPACE_REGISTRY = 2;
    /** Broker events. */
    public static final int SPACE_BROKER = 3;
    /** Memory quota events. */
    public static final int SPACE_MEMQUOTA = 4;
    /** First space applications may use. */
    public static final int SPACE_USER_FIRST = 4096;
    /** Largest space. */
    public static final int MAX_SPACE = 0x7FFF;

    private EventTypes()
    {
    }

    /**
     * Builds a type id.
     *
     * @param space the space, 0..{@link #MAX_SPACE}.
     * @param index the index within the space, 0..65535.
     * @return the type id.
     */
    public static int typeId(final int space, final int index)
    {
        if (space < 0 || space > MAX_SPACE)
        {
            throw new IllegalArgumentException("event space " + space + " out of range 0.." + MAX_SPACE);
        }
        if (index < 0 || index > 0xFFFF)
        {
            throw new IllegalArgumentException("event index " + index + " out of range 0..65535");
        }
        return (space << 16) | index;
    }

    /**
     * The space of a type id.
     *
     * @param typeId the type id.
     * @return its space.
     */
    public static int spaceOf(final int typeId)
    {
        return typeId >>> 16;
    }

    /**
     * The index of a type id within its space.
     *
     * @param typeId the type id.
     * @return its index, 0..65535.
     */
    public static int indexOf(final int typeId)
    {
        return typeId & 0xFFFF;
    }

    /**
     * A readable form of a type id for error messages: {@code space:index (0xhex)}, e.g. {@code 4096:7 (0x10000007)}.
     *
     * @param typeId the type id.
     * @return the text.
     */
    public static String describe(final int typeId)
    {
        return spaceOf(typeId) + ":" + indexOf(typeId) + " (0x" + Integer.toHexString(typeId) + ')';
    }
}
