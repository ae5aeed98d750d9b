package io.troupe.node;

import io.troupe.node.demo.Demo;

import java.io.PrintStream;
import java.util.Arrays;

/**
 * Entry point of the node jar, behind the {@code ./troupe} launcher: {@code demo} now; {@code node} and the
 * operations commands come with the interconnect and the CLI.
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

    static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        if (args.length == 0 || "help".equals(args[0]) || "--help".equals(args[0]) || "-h".equals(args[0]))
        {
            usage(args.length == 0 ? err : out);
            return args.length == 0 ? 2 : 0;
        }
        final String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (args[0])
        {
            case "demo":
                return Demo.run(rest, out, err);
            default:
                err.println("troupe: unknown command '" + args[0] + "'");
                usage(err);
                return 2;
        }
    }

    private static void usage(final PrintStream stream)
    {
        stream.println("usage: troupe <command> [options]");
        stream.println();
        stream.println("commands:");
        stream.println("  demo [--seconds N] [--pairs N] [--threads N]");
        stream.println("        start a local node, run a ping-pong and a service lookup, print what happened");
        stream.println("  help  this text");
    }
}
