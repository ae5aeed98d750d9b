package io.troupe.serialization.wire;

/**
 * What a directory entry does. Codes are fixed on the wire: a new value is only ever appended.
 */
public enum DirectoryOp
{
    /** The service maps to the actor from now on. */
    REGISTER(0),
    /** The service no longer maps to the actor. */
    UNREGISTER(1),
    /** A code this build does not know (a newer peer). Never sent. */
    UNKNOWN(-1);

    private static final DirectoryOp[] BY_CODE = {REGISTER, UNREGISTER};

    private final int code;

    DirectoryOp(final int code)
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
    public static DirectoryOp fromCode(final int code)
    {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : UNKNOWN;
    }
}
