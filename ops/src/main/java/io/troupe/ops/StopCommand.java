package io.troupe.ops;

import picocli.CommandLine.Command;

/** {@code troupe stop}: stop the node now, without draining, over the control channel. */
@Command(name = "stop", description = "stop the node now, without draining: tracked events still queued end as " +
    "Undelivered(SHUTDOWN) to their senders; it says goodbye to its peers and stops; waits for that")
final class StopCommand extends ControlCommand
{
    @Override
    String command()
    {
        return "stop";
    }

    @Override
    long stopWithinMs()
    {
        return 0;
    }
}
