package io.troupe.serialization.wire;

/**
 * How a node protects the frames of a session after its handshake, as announced in the handshake's
 * {@code frameProtection} field (schema version 4). Codes are fixed on the wire: a new value is only appended.
 */
public enum FrameProtection
{
    /** Every frame carries a MAC under the session's key: the peer knows who sent it, others can read it. */
    AUTHENTICATED(1),
    /** Every frame is encrypted and authenticated (AEAD) under the session's key. */
    ENCRYPTED(2),
    /** A code this build does not know, or none (a step older than version 4). Never sent. */
    UNKNOWN(0);

    private final int code;

    FrameProtection(final int code)
    {
        this.code = code;
    }

    /**
     * The code on the wire.
     *
     * @return the code, 0 for {@link #UNKNOWN}.
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
    public static FrameProtection fromCode(final int code)
    {
        switch (code)
        {
            case 1:
                return AUTHENTICATED;
            case 2:
                return ENCRYPTED;
            default:
                return UNKNOWN;
        }
    }
}
