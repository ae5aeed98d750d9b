package io.troupe.actor;

/**
 * Completes an {@link ActorSystem#ask} future when the request was not delivered.
 */
public final class UndeliveredException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /** The notice; not serialised with the exception. */
    private final transient Undelivered undelivered;

    /**
     * Creates the exception.
     *
     * @param undelivered the notice.
     */
    public UndeliveredException(final Undelivered undelivered)
    {
        super("not delivered to " + undelivered.recipient() + ": " + undelivered.reason());
        this.undelivered = undelivered;
    }

    /**
     * The notice.
     *
     * @return the notice.
     */
    public Undelivered undelivered()
    {
        return undelivered;
    }
}
