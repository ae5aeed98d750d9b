package io.troupe.serialization.wire;

/**
 * A step of the session handshake (see the interconnect). Codes are fixed on the wire: a new value is only ever
 * appended.
 */
public enum HandshakePhase
{
    /** I am this node and incarnation; here is my challenge. */
    HELLO(0),
    /** Proof for your challenge, and my own challenge. */
    WELCOME(1),
    /** Proof for your challenge: the session is open. */
    CONFIRM(2),
    /** The handshake failed; the detail says why. */
    REFUSE(3),
    /** A code this build does not know (a newer peer). Never sent. */
    UNKNOWN(-1);

    private static final HandshakePhase[] BY_CODE = {HELLO, WELCOME, CONFIRM, REFUSE};

    private final int code;

    HandshakePhase(final int code)
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
    public static HandshakePhase fromCode(final int code)
    {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : UNKNOWN;
    }
}
