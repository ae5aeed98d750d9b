package io.troupe.ops;

import picocli.CommandLine.Command;

/** {@code troupe broker}: commands on one named broker ({@code set}). */
@Command(name = "broker", description = "change a named broker of the node: troupe broker set NAME --ask POLICY",
    subcommands = BrokerSetCommand.class)
final class BrokerCommand
{
}
