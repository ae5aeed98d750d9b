package io.troupe.ops;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The {@code troupe} CLI: a node's status, peers, sessions, counters, errors, memory quota, credit and services,
 * read from the node's data directory (its counters file and directory replica), so that every read command answers
 * even when the node is wedged or stopped. Human tables by default, {@code --json} for one JSON document (the
 * schemas are in {@code ops/README.md}). Exit codes: {@link #OK}, {@link #NOT_OK}, {@link #USAGE},
 * {@link #UNREACHABLE}.
 */
@Command(name = "troupe", mixinStandardHelpOptions = true, versionProvider = TroupeCli.Version.class,
    description = "Operate a Troupe node: read commands use the node's data directory (they work on a wedged node).",
    subcommands = {StatusCommand.class, NodesCommand.class, SessionsCommand.class, CountersCommand.class,
        ErrorsCommand.class, MemquotaCommand.class, CreditCommand.class, ServicesCommand.class, BrokersCommand.class,
        BrokerCommand.class, DrainCommand.class, StopCommand.class, MembersCommand.class, LeaveCommand.class,
        DownCommand.class})
public final class TroupeCli
{
    /** Done. */
    public static final int OK = 0;
    /** Done, and the answer is "not ok" ({@code status --check} on a node that is not ready, a drain whose deadline
     * passed), or the caller may not control the node. */
    public static final int NOT_OK = 1;
    /** The command line is wrong. */
    public static final int USAGE = 2;
    /** The node cannot be reached: no counters file, or not readable. */
    public static final int UNREACHABLE = 3;

    /** The commands this CLI has, for a launcher that dispatches to it. */
    public static final List<String> COMMANDS = List.of("status", "nodes", "sessions", "counters",
        "errors", "memquota", "credit", "services", "brokers", "broker", "drain", "stop");

    private TroupeCli()
    {
    }

    /**
     * Runs the CLI and exits with its code.
     *
     * @param args the command line.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Runs the CLI without exiting.
     *
     * @param args the command line: a command and its options.
     * @param out  where results go.
     * @param err  where errors go.
     * @return the exit code.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        final PrintWriter outWriter = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true);
        final PrintWriter errWriter = new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true);
        final CommandLine cli = new CommandLine(TroupeCli.class)
            .setOut(outWriter)
            .setErr(errWriter)
            .setExecutionExceptionHandler((ex, commandLine, parseResult) ->
            {
                if (ex instanceof CliException failure)
                {
                    commandLine.getErr().println("troupe " + commandLine.getCommandName() + ": " +
                        failure.getMessage());
                    return failure.exitCode();
                }
                throw ex;
            });
        final int code = cli.execute(args);
        outWriter.flush();
        errWriter.flush();
        return code;
    }

    /** The version: the jar's. */
    static final class Version implements CommandLine.IVersionProvider
    {
        @Override
        public String[] getVersion()
        {
            final String version = TroupeCli.class.getPackage().getImplementationVersion();
            return new String[] {"troupe " + (version == null ? "(development build)" : version)};
        }
    }
}
