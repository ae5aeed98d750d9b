package io.troupe.actor;

/**
 * Event type ids are allocated in spaces of 65,536 ids: {@code typeId = space << 16 | index}. Troupe's own
 * subsystems use the spaces below {@link #SPACE_USER_FIRST}; applications use spaces from it upwards.
 */
public final class EventTypes
{
    /** Runtime events: {@link Undelivered}, {@link Poison}. */
    public static final int SPACE_SYSTEM = 0;
    /** Interconnect events. */
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
}
