package io.troupe.node;

import java.io.PrintStream;
import java.util.Arrays;

/**
 * The node's command line: {@code node} runs a node. The {@code ./troupe} launcher's jar (the samples module)
 * adds the demo in front of it; the operations commands come with the CLI.
 */
public final class Main
{
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
     * Runs a subcommand without exiting.
     *
     * @param args the subcommand and its options.
     * @param out  standard output.
     * @param err  standard error.
     * @return the exit code: 0 done, 1 failed, 2 usage or config error.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        if (args.length == 0 || "help".equals(args[0]) || "--help".equals(args[0]) || "-h".equals(args[0]))
        {
            usage(args.length == 0 ? err : out);
            return args.length == 0 ? 2 : 0;
        }
        final String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (args[0])
        {
            case "node":
                return NodeCommand.run(rest, out, err, system ->
                {
                });
            default:
                err.println("troupe: unknown command '" + args[0] + "'");
                usage(err);
                return 2;
        }
    }

    /**
     * Prints the usage lines of the node's commands (a launcher that adds commands prints its own around them).
     *
     * @param stream where to.
     */
    public static void commands(final PrintStream stream)
    {
        NodeCommand.usage(stream);
    }

    private static void usage(final PrintStream stream)
    {
        stream.println("usage: troupe <command> [options]");
        stream.println();
        stream.println("commands:");
        commands(stream);
        stream.println("  help  this text");
    }
}
