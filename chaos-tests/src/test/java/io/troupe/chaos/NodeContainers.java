package io.troupe.chaos;

import com.github.dockerjava.api.model.Network.Ipam;
import io.troupe.testing.JsonReader;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.Transferable;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Nodes of one cluster in containers of the project's image ({@code -Dtroupe.image}, built by this module's build
 * from {@code samples/target/troupe.jar}) on a network of their own: an explicit subnet, a static address per node
 * id ({@code 172.31.<net>.<10 + id>}), and nothing else as a target. Each node's config is written into its
 * container at {@code /etc/troupe/node.conf}; the cluster secret comes from the environment. Close it to remove every
 * container and the network.
 */
final class NodeContainers implements AutoCloseable
{
    /** The node's port inside its container (UDP). */
    static final int PORT = 40100;
    /** The data directory inside a node's container, as the image's config and ours set it. */
    static final String DATA_DIR = "/var/lib/troupe/data";
    private static final String CLUSTER_SECRET = "chaos-cluster-secret-0123456789";

    private final String image = System.getProperty("troupe.image", "troupe/node:latest");
    private final String subnetPrefix;
    private final Network network;
    private final List<GenericContainer<?>> containers = new ArrayList<>();

    /**
     * A network {@code 172.31.<octet>.0/24} for one test class; pick a distinct octet per class.
     *
     * @param octet the subnet's third octet, 1..254.
     */
    NodeContainers(final int octet)
    {
        subnetPrefix = "172.31." + octet + ".";
        network = Network.builder()
            .createNetworkCmdModifier(cmd -> cmd.withIpam(new Ipam().withConfig(
                new Ipam.Config().withSubnet(subnetPrefix + "0/24").withGateway(subnetPrefix + "1"))))
            .build();
    }

    /** The static address of a node id on this network. */
    String address(final int nodeId)
    {
        return subnetPrefix + (10 + nodeId);
    }

    /**
     * A node container (not started) of a cluster of {@code clusterSize} nodes with ids 1..clusterSize.
     *
     * @param nodeId      this node's id.
     * @param clusterSize how many nodes the cluster has; every other one is a peer.
     * @return the container; start it (several in parallel, they find each other by their static addresses).
     */
    GenericContainer<?> node(final int nodeId, final int clusterSize)
    {
        final String address = address(nodeId);
        final GenericContainer<?> container = new GenericContainer<>(image)
            .withImagePullPolicy(name -> false)
            .withNetwork(network)
            .withNetworkAliases("node" + nodeId)
            .withCreateContainerCmdModifier(cmd -> cmd.withIpv4Address(address))
            .withEnv("TROUPE_CLUSTER_SECRET", CLUSTER_SECRET)
            .withEnv("JDK_JAVA_OPTIONS", "-Xmx256m")
            .withCopyToContainer(Transferable.of(config(nodeId, clusterSize)), "/etc/troupe/node.conf")
            .waitingFor(Wait.forLogMessage(".*troupe node " + nodeId + " is up.*\\n", 1)
                .withStartupTimeout(Duration.ofSeconds(60)));
        containers.add(container);
        return container;
    }

    private String config(final int nodeId, final int clusterSize)
    {
        final StringJoiner peers = new StringJoiner(",\n    ", "[\n    ", "\n  ]");
        for (int peer = 1; peer <= clusterSize; peer++)
        {
            if (peer != nodeId)
            {
                peers.add("{ id = " + peer + ", host = \"" + address(peer) + "\", port = " + PORT + " }");
            }
        }
        return "troupe {\n" +
            "  node-id = " + nodeId + "\n" +
            "  cluster-id = \"chaos\"\n" +
            "  cluster-secret = ${?TROUPE_CLUSTER_SECRET}\n" +
            "  data-dir = \"" + DATA_DIR + "\"\n" +
            "  bind { host = \"" + address(nodeId) + "\", port = " + PORT + " }\n" +
            "  peers = " + peers + "\n" +
            "}\n";
    }

    /**
     * Runs the {@code troupe} CLI inside a node's container, against that node's data directory.
     *
     * @param container a started node container.
     * @param args      the command and its options, e.g. {@code status --json}.
     * @return the CLI's exit code and output.
     */
    static ExecResult cli(final GenericContainer<?> container, final String... args)
    {
        final List<String> command = new ArrayList<>(List.of("java", "-jar", "/app/troupe.jar"));
        command.addAll(List.of(args));
        command.add("--data-dir");
        command.add(DATA_DIR);
        try
        {
            return container.execInContainer(command.toArray(String[]::new));
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("troupe " + String.join(" ", args) + " in " + container.getContainerName(),
                ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }

    /** The JSON document a read command printed with {@code --json} in a node's container. */
    static Map<String, Object> cliJson(final GenericContainer<?> container, final String... args)
    {
        final String[] withJson = new String[args.length + 1];
        System.arraycopy(args, 0, withJson, 0, args.length);
        withJson[args.length] = "--json";
        final ExecResult result = cli(container, withJson);
        if (result.getExitCode() != 0 && result.getExitCode() != 1)
        {
            throw new IllegalStateException("troupe " + String.join(" ", args) + " exited " + result.getExitCode() +
                ": " + result.getStdout() + result.getStderr());
        }
        return JsonReader.object(result.getStdout());
    }

    @Override
    public void close()
    {
        containers.forEach(GenericContainer::stop);
        containers.clear();
        network.close();
    }
}
