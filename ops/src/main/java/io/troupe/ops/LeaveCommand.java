package io.troupe.ops;

import picocli.CommandLine.Command;

/** {@code troupe leave}: a graceful leave of the membership, then the drain, asked over the control channel. */
@Command(name = "leave", description = "leave the cluster gracefully: the membership records the node as LEAVING " +
    "(its peers know it goes), it drains as for drain (up to its troupe.shutdown-timeout), is recorded as LEFT and " +
    "stops; waits for that and exits 0 if it drained, 1 if the deadline passed")
final class LeaveCommand extends ControlCommand
{
    @Override
    String command()
    {
        return "leave";
    }

    @Override
    long stopWithinMs()
    {
        return 600_000;
    }
}
