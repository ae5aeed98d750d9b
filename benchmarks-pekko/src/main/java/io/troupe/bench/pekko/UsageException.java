package io.troupe.bench.pekko;

/**
 * A command line the driver cannot run: unknown workload or option, missing or malformed value. {@link Main}
 * prints the message and the usage on stderr and exits with code {@value Main#EXIT_USAGE}.
 */
final class UsageException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong with the command line, naming the option.
     */
    UsageException(final String message)
    {
        super(message);
    }
}
