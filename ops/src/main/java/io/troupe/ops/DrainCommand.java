package io.troupe.ops;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code troupe drain}: the clean shutdown SIGTERM starts, asked over the control channel, and watched to its end. */
@Command(name = "drain", description = "stop the node cleanly: it stops taking work from outside, lets its pools " +
    "drain (for up to --timeout, else its troupe.shutdown-timeout), reports what is left as Undelivered(SHUTDOWN), " +
    "says goodbye to its peers and stops; waits for that and exits 0 if it drained, 1 if the deadline passed")
final class DrainCommand extends ControlCommand
{
    @Option(names = "--timeout", paramLabel = "SECONDS", description = "the drain deadline (0 to 600 s; default: " +
        "the node's troupe.shutdown-timeout)")
    Double timeoutSeconds;

    @Override
    String command()
    {
        if (timeoutSeconds == null)
        {
            return "drain";
        }
        if (timeoutSeconds < 0 || timeoutSeconds > 600)
        {
            throw new CliException(TroupeCli.USAGE, "--timeout takes 0 to 600 seconds");
        }
        return "drain " + Math.round(timeoutSeconds * 1000);
    }

    @Override
    long stopWithinMs()
    {
        return timeoutSeconds == null ? 600_000 : Math.round(timeoutSeconds * 1000);
    }
}
