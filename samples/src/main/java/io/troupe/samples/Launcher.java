package io.troupe.samples;

import io.troupe.node.Main;
import io.troupe.samples.demo.ClusterDemo;
import io.troupe.samples.demo.LocalDemo;

import java.io.PrintStream;
import java.util.Arrays;

/**
 * Entry point of the {@code ./troupe} launcher's jar: {@code demo} runs the 3-node demo ({@code demo --local}
 * the single-node one); every other command is the node's ({@link Main}).
 */
public final class Launcher
{
    private Launcher()
    {
    }

    /**
     * Runs a command and exits with its code.
     *
     * @param args the command and its options.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Runs a command without exiting.
     *
     * @param args the command and its options.
     * @param out  standard output.
     * @param err  standard error.
     * @return the exit code: 0 done, 1 failed, 2 usage error.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        if (args.length == 0 || "help".equals(args[0]) || "--help".equals(args[0]) || "-h".equals(args[0]))
        {
            usage(args.length == 0 ? err : out);
            return args.length == 0 ? 2 : 0;
        }
        switch (args[0])
        {
            case "demo":
                final String[] rest = Arrays.copyOfRange(args, 1, args.length);
                if (rest.length > 0 && "--local".equals(rest[0]))
                {
                    return LocalDemo.run(Arrays.copyOfRange(rest, 1, rest.length), out, err);
                }
                return ClusterDemo.run(rest, out, err);
            case "node":
                return Main.run(args, out, err);
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
        stream.println("  demo [--seconds N] [--pairs N]");
        stream.println("        start a 3-node cluster on 127.0.0.1 (this process and two child processes), run remote");
        stream.println("        ping-pong, a remote service call and a node stop, print what happened, stop everything");
        stream.println("  demo --local [--seconds N] [--pairs N] [--threads N]");
        stream.println("        the single-node demo: one node in this process, local ping-pong and a service lookup");
        Main.commands(stream);
        stream.println("  help  this text");
    }
}
