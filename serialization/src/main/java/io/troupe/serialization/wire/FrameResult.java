package io.troupe.serialization.wire;

/**
 * What {@link FrameDecoder#decode} made of a frame: {@link #OK}, or why it was rejected. Every rejection is
 * counted by the decoder; none is thrown.
 */
public enum FrameResult
{
    /** Valid; the handler was called. */
    OK("valid"),
    /** The offset and length given do not lie inside the buffer. */
    OUT_OF_BUFFER("offset and length lie outside the buffer"),
    /** Shorter than a message header. */
    TOO_SHORT("shorter than the 8-byte message header"),
    /** Longer than the configured maximum frame size. */
    TOO_LONG("longer than the maximum frame size"),
    /** The header's schema id is not Troupe's. */
    WRONG_SCHEMA("schema id is not Troupe's"),
    /** The header's version is older than this build reads. */
    UNSUPPORTED_VERSION("schema version older than this build reads"),
    /** The header's template id is not one this build knows. */
    UNKNOWN_TEMPLATE("unknown template id"),
    /** The header's block length is shorter than the message's fixed fields at that version. */
    BLOCK_TOO_SHORT("block length shorter than the message's fixed fields"),
    /** The fixed block runs past the end of the frame. */
    TRUNCATED_BLOCK("fixed block runs past the end of the frame"),
    /** A repeating group's block length is shorter than its entries' fields. */
    GROUP_BLOCK_TOO_SHORT("group block length shorter than its entries' fields"),
    /** A repeating group's header or entries run past the end of the frame. */
    TRUNCATED_GROUP("repeating group runs past the end of the frame"),
    /** A variable-length field's length prefix or bytes run past the end of the frame. */
    TRUNCATED_VAR_DATA("variable-length field runs past the end of the frame"),
    /** A variable-length field is longer than its limit. */
    VAR_DATA_TOO_LONG("variable-length field longer than its limit"),
    /** The frame was valid but the handler threw; the decoder caught it. */
    HANDLER_FAILED("valid, but the handler threw");

    private final String description;

    FrameResult(final String description)
    {
        this.description = description;
    }

    /**
     * Whether the frame was valid and handled.
     *
     * @return true for {@link #OK}.
     */
    public boolean isOk()
    {
        return this == OK;
    }

    /**
     * Whether the frame itself was bad (not a handler failure).
     *
     * @return true for a rejection.
     */
    public boolean isRejection()
    {
        return this != OK && this != HANDLER_FAILED;
    }

    /**
     * A phrase for logs.
     *
     * @return what the result means.
     */
    public String description()
    {
        return description;
    }
}
