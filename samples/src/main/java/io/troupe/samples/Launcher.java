package io.troupe.samples;

import io.troupe.node.Main;
import io.troupe.ops.TroupeCli;
import io.troupe.samples.client.ClientDemo;
import io.troupe.samples.client.GreeterClient;
import io.troupe.samples.client.GreeterNode;
import io.troupe.samples.demo.ClusterDemo;
import io.troupe.samples.demo.LocalDemo;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Entry point of the {@code ./troupe} launcher's jar: the node's command line ({@link Main}) with the demo added,
 * {@code demo} running the 3-node demo and {@code demo --local} the single-node one, and the client sample
 * ({@code client-demo}, {@code greeter-node}, {@code greeter-client}).
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
        final Map<String, Main.Command> commands = new HashMap<>(Map.of("demo", Launcher::demo,
            "client-demo", ClientDemo::run,
            "greeter-node", (options, o, e) -> GreeterNode.run(options),
            "greeter-client", GreeterClient::run));
        for (final String command : TroupeCli.COMMANDS)
        {
            commands.put(command, (options, o, e) -> TroupeCli.run(cli(command, options), o, e));
        }
        return Main.run(args, out, err, commands, Launcher::demoUsage);
    }

    private static String[] cli(final String command, final String[] options)
    {
        final String[] args = new String[options.length + 1];
        args[0] = command;
        System.arraycopy(options, 0, args, 1, options.length);
        return args;
    }

    private static int demo(final String[] options, final PrintStream out, final PrintStream err)
    {
        if (options.length > 0 && "--local".equals(options[0]))
        {
            return LocalDemo.run(Arrays.copyOfRange(options, 1, options.length), out, err);
        }
        return ClusterDemo.run(options, out, err);
    }

    private static void demoUsage(final PrintStream stream)
    {
        stream.println("  demo [--seconds N] [--pairs N]");
        stream.println("        start a 3-node cluster on 127.0.0.1 (this process and two child processes), run " +
            "remote");
        stream.println("        ping-pong, a remote service call and a node stop, print what happened, stop " +
            "everything");
        stream.println("  demo --local [--seconds N] [--pairs N] [--threads N]");
        stream.println("        the single-node demo: one node in this process, local ping-pong and a service lookup");
        stream.println("  client-demo");
        stream.println("        a greeter node in a child process and this process as its client: look it up, ask it");
        stream.println("  greeter-node --config FILE");
        stream.println("        a node with the greeter service (set troupe.client.secret in the config for clients)");
        stream.println("  status | nodes | sessions | counters | errors | memquota | credit | services [NAME] | " +
            "brokers [NAME]");
        stream.println("        [--data-dir DIR | --config FILE] [--json]: read a node's state from its data " +
            "directory");
        stream.println("        (works on a wedged node); `./troupe status --help` for each command's options");
        stream.println("  drain [--timeout SECONDS] | stop  [--data-dir DIR | --config FILE]: stop a node on this " +
            "host");
        stream.println("        cleanly (drain) or at once (stop), over its local control channel");
        stream.println("  broker set NAME --ask POLICY [--ask-r POLICY]: new queue policies for a running broker");
        stream.println("  image [TAG]   (./troupe only, from the sources)");
        stream.println("        build the node's container image (default tag troupe/node:<version>) with a Docker " +
            "engine");
        stream.println("        it starts where none answers; see docs/deployment.md, \"A node in a container\"");
        stream.println("  greeter-client --endpoint HOST:PORT --cluster-id ID (--client-secret S | " +
            "--client-secret-file F)");
        stream.println("        [--replica DATA_DIR] [--asks N]: connect to a greeter node, look it up, ask it");
    }
}
