package io.troupe.actor;

/**
 * An event payload could not be decoded: it is truncated, a length or value is out of range, or its header does
 * not match the decoder. Decoders throw it instead of reading outside the payload; the message names the type id
 * and what was wrong.
 */
public final class MalformedEventException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final int typeId;

    /**
     * Creates the exception.
     *
     * @param typeId  the type id of the event that failed to decode.
     * @param problem what was wrong, e.g. {@code "truncated: string length 40 at offset 12, only 3 bytes remain"}.
     */
    public MalformedEventException(final int typeId, final String problem)
    {
        super(message(typeId, problem));
        this.typeId = typeId;
    }

    /**
     * Creates the exception with a cause.
     *
     * @param typeId  the type id of the event that failed to decode.
     * @param problem what was wrong.
     * @param cause   the underlying failure.
     */
    public MalformedEventException(final int typeId, final String problem, final Throwable cause)
    {
        super(message(typeId, problem), cause);
        this.typeId = typeId;
    }

    /**
     * The type id of the event that failed to decode.
     *
     * @return the type id.
     */
    public int typeId()
    {
        return typeId;
    }

    private static String message(final int typeId, final String problem)
    {
        return "malformed event of type " + EventTypes.describe(typeId) + ": " + problem;
    }
}
