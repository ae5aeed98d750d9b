package io.troupe.node.counters;

/** A counters file that is missing, unreadable or not one this build reads; the message says which and where. */
public final class CountersFileException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * An exception.
     *
     * @param message what is wrong, naming the file.
     */
    public CountersFileException(final String message)
    {
        super(message);
    }
}
