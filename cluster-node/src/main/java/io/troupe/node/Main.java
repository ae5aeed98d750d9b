package io.troupe.node;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The node's command line: {@code node} runs a node. A launcher that offers more commands (the samples module's
 * jar adds the demo) passes them to {@link #run(String[], PrintStream, PrintStream, Map, Consumer)}, which
 * dispatches, prints the usage and rejects unknown commands for both; the operations commands come with the CLI.
 */
public final class Main
{
    /** A command of the launcher: runs with the options after its name and returns an exit code. */
    @FunctionalInterface
    public interface Command
    {
        /**
         * Runs the command.
         *
         * @param options the arguments after the command's name.
         * @param out     standard output.
         * @param err     standard error.
         * @return the exit code: 0 done, 1 failed, 2 usage or config error.
         */
        int run(String[] options, PrintStream out, PrintStream err);
    }

    private Main()
    {
    }

    /**
     * Runs a subcommand.
     *
     * @param args the subcommand and its options.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Runs a subcommand of the node without exiting.
     *
     * @param args the subcommand and its options.
     * @param out  standard output.
     * @param err  standard error.
     * @return the exit code: 0 done, 1 failed, 2 usage or config error.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        return run(args, out, err, Map.of(), stream ->
        {
        });
    }

    /**
     * Runs a subcommand without exiting: one of the node's, or one of a launcher's own.
     *
     * @param args       the subcommand and its options.
     * @param out        standard output.
     * @param err        standard error.
     * @param extra      the launcher's commands by name (they come before the node's in the usage).
     * @param extraUsage prints the usage lines of the launcher's commands.
     * @return the exit code: 0 done, 1 failed, 2 usage or config error.
     */
    public static int run(
        final String[] args,
        final PrintStream out,
        final PrintStream err,
        final Map<String, Command> extra,
        final Consumer<PrintStream> extraUsage)
    {
        if (args.length == 0 || "help".equals(args[0]) || "--help".equals(args[0]) || "-h".equals(args[0]))
        {
            usage(args.length == 0 ? err : out, extraUsage);
            return args.length == 0 ? 2 : 0;
        }
        final String[] rest = Arrays.copyOfRange(args, 1, args.length);
        final Command command = extra.get(args[0]);
        if (command != null)
        {
            return command.run(rest, out, err);
        }
        if ("node".equals(args[0]))
        {
            return NodeCommand.run(rest, out, err, system ->
            {
            });
        }
        err.println("troupe: unknown command '" + args[0] + "'");
        usage(err, extraUsage);
        return 2;
    }

    private static void usage(final PrintStream stream, final Consumer<PrintStream> extraUsage)
    {
        stream.println("usage: troupe <command> [options]");
        stream.println();
        stream.println("commands:");
        extraUsage.accept(stream);
        NodeCommand.usage(stream);
        stream.println("  help  this text");
    }
}
