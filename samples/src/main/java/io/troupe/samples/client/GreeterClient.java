package io.troupe.samples.client;

import io.troupe.client.ClientConfig;
import io.troupe.client.TroupeClient;
import io.troupe.registry.ServiceInstance;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A process outside the cluster that finds the {@code greeter} service and asks it: the client side of the client
 * sample, and what embedding {@code cluster-client} takes.
 *
 * <pre>
 * troupe greeter-client --endpoint HOST:PORT [--endpoint ...] --cluster-id ID
 *                       (--client-secret TEXT | --client-secret-file FILE) [--replica DATA_DIR] [--asks N]
 * </pre>
 */
public final class GreeterClient
{
    /** Asks before the timed ones: a fresh JVM runs the path interpreted at first, ten times slower. */
    static final int WARM_UP_ASKS = 5_000;

    private GreeterClient()
    {
    }

    /**
     * Runs the client.
     *
     * @param args the options above.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Connects, looks the greeter up, asks it, prints what happened, and closes.
     *
     * @param args the options.
     * @param out  where the story goes.
     * @param err  where errors go.
     * @return 0 done, 1 failed, 2 usage.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        final ClientConfig config;
        final int asks;
        try
        {
            final Options options = Options.parse(args);
            config = options.config;
            asks = options.asks;
        }
        catch (final IllegalArgumentException ex)
        {
            err.println("troupe greeter-client: " + ex.getMessage());
            err.println("usage: troupe greeter-client --endpoint HOST:PORT [--endpoint ...] --cluster-id ID " +
                "(--client-secret TEXT | --client-secret-file FILE) [--replica DATA_DIR] [--asks N]");
            return 2;
        }
        try (TroupeClient client = TroupeClient.connect(config))
        {
            return talk(client, config, asks, out);
        }
        catch (final RuntimeException ex)
        {
            err.println("troupe greeter-client: " + ex.getMessage());
            return 1;
        }
    }

    /**
     * What the sample does once connected.
     *
     * @param client the client.
     * @param config its config.
     * @param asks   asks in a row to time.
     * @param out    where the story goes.
     * @return 0 done, 1 failed.
     */
    static int talk(final TroupeClient client, final ClientConfig config, final int asks, final PrintStream out)
    {
        out.printf("client    %d connected to node %d at %s%n", client.clientId(), client.nodeId(),
            client.connectedEndpoint());
        final long lookupNs = System.nanoTime();
        final List<ServiceInstance> greeters = client.lookup(GreeterEvents.GREETER);
        out.printf("lookup    greeter -> %s in %.1f us (%s)%n", greeters, (System.nanoTime() - lookupNs) / 1e3,
            config.replicaDirectory() != null ? "the node's replica, shared memory" : "asked the node");
        if (greeters.isEmpty())
        {
            out.println("          no greeter: is the node a greeter node?");
            return 1;
        }
        final long askNs = System.nanoTime();
        final GreeterEvents.Greeting greeting = client.ask(greeters.get(0).<GreeterEvents.Greet>ref(),
            new GreeterEvents.Greet("client " + client.clientId()), GreeterEvents.Greeting.class, Duration.ofSeconds(5))
            .join();
        out.printf("ask       greet -> \"%s\" from node %d in %.2f ms%n", greeting.text(), greeting.node(),
            (System.nanoTime() - askNs) / 1e6);
        for (int i = 0; i < WARM_UP_ASKS && asks > 0; i++)
        {
            client.ask(GreeterEvents.GREETER, new GreeterEvents.Greet("warm-up"), GreeterEvents.Greeting.class,
                Duration.ofSeconds(5)).join(); // both JVMs are young: let the JIT compile the path first
        }
        final long[] samples = new long[asks];
        for (int i = 0; i < asks; i++)
        {
            final long start = System.nanoTime();
            client.ask(GreeterEvents.GREETER, new GreeterEvents.Greet("#" + i), GreeterEvents.Greeting.class,
                Duration.ofSeconds(5)).join();
            samples[i] = System.nanoTime() - start;
        }
        if (asks > 0)
        {
            Arrays.sort(samples);
            out.printf("          %d asks one after another, after %,d of warm-up: p50 %.0f us, p99 %.0f us, max " +
                "%.0f us%n", asks, WARM_UP_ASKS, samples[asks / 2] / 1e3,
                samples[Math.min(asks - 1, (int)Math.ceil(asks * 0.99) - 1)] / 1e3, samples[asks - 1] / 1e3);
        }
        out.printf("counters  %s%n", client.counters());
        return 0;
    }

    private record Options(ClientConfig config, int asks)
    {
        static Options parse(final String[] args)
        {
            final ClientConfig config = new ClientConfig().codec(GreeterEvents.GREET).codec(GreeterEvents.GREETING);
            int asks = 200;
            final List<String> endpoints = new ArrayList<>();
            for (int i = 0; i < args.length; i++)
            {
                final String option = args[i];
                if (i + 1 >= args.length)
                {
                    throw new IllegalArgumentException(option + " needs a value");
                }
                final String value = args[++i];
                switch (option)
                {
                    case "--endpoint" -> endpoints.add(value);
                    case "--cluster-id" -> config.clusterId(value);
                    case "--client-secret" -> config.secret(value.getBytes(StandardCharsets.UTF_8));
                    case "--client-secret-file" -> config.secret(readSecretFile(Path.of(value)));
                    case "--replica" -> config.replicaDirectory(Path.of(value));
                    case "--asks" -> asks = Integer.parseInt(value);
                    default -> throw new IllegalArgumentException("unknown option " + option);
                }
            }
            if (endpoints.isEmpty())
            {
                throw new IllegalArgumentException("--endpoint is required");
            }
            endpoints.forEach(config::endpoint);
            return new Options(config, Math.max(0, asks));
        }
    }

    /**
     * A secret from a file, as the node reads its secret files: the bytes, without one trailing line break
     * ({@code \n} or {@code \r\n}).
     *
     * @param file the file.
     * @return the secret.
     * @throws IllegalArgumentException if the file cannot be read.
     */
    static byte[] readSecretFile(final Path file)
    {
        final byte[] bytes;
        try
        {
            bytes = Files.readAllBytes(file);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("cannot read " + file + ": " + ex.getMessage());
        }
        int length = bytes.length;
        if (length > 0 && bytes[length - 1] == '\n')
        {
            length--;
            if (length > 0 && bytes[length - 1] == '\r')
            {
                length--;
            }
        }
        return Arrays.copyOf(bytes, length);
    }
}
