package io.troupe.ops;

/** A command that cannot do what it was asked, with the exit code to end with and a message for the operator. */
final class CliException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final int exitCode;

    CliException(final int exitCode, final String message)
    {
        super(message);
        this.exitCode = exitCode;
    }

    int exitCode()
    {
        return exitCode;
    }
}
