package io.troupe.serialization.wire;

/**
 * Why a session ends on purpose. Codes are fixed on the wire: a new value is only ever appended.
 */
public enum GoodbyeReason
{
    /** The node is shutting down. */
    SHUTDOWN(0),
    /** The node restarts; a new incarnation follows. */
    RESTART(1),
    /** The peer was refused (wrong cluster, secret or version). */
    REFUSED(2),
    /** The peer stopped answering. */
    TIMEOUT(3),
    /** The peer sent frames that broke the protocol. */
    PROTOCOL_ERROR(4),
    /** The node's memory quota could not hold what the peer sent (a large frame half assembled); since version 5. */
    OVERLOADED(5),
    /** A code this build does not know (a newer peer). Never sent. */
    UNKNOWN(-1);

    private static final GoodbyeReason[] BY_CODE = {SHUTDOWN, RESTART, REFUSED, TIMEOUT, PROTOCOL_ERROR, OVERLOADED};

    private final int code;

    GoodbyeReason(final int code)
    {
        this.code = code;
    }

    /**
     * The code on the wire.
     *
     * @return the code, or -1 for {@link #UNKNOWN}.
     */
    public int code()
    {
        return code;
    }

    /**
     * The value of a code.
     *
     * @param code the code on the wire.
     * @return the value, or {@link #UNKNOWN}.
     */
    public static GoodbyeReason fromCode(final int code)
    {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : UNKNOWN;
    }
}
