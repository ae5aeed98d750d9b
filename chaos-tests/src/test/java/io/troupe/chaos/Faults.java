package io.troupe.chaos;

import com.github.dockerjava.api.model.ContainerNetwork;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The faults a chaos scenario injects into a {@link ChaosCluster}, each one a logged step on the run's timeline:
 * symmetric partition (the container leaves the network) and heal (it joins again at its address), asymmetric
 * partition (iptables in the node's network namespace drops what one peer sends it), pause and unpause
 * ({@code docker pause}), {@code kill -9} and restart of the same container (same address, same data directory),
 * UDP loss (iptables' random match in the node's namespace) and UDP delay (the relays of a relayed cluster,
 * {@link #delay}). The namespace rules run with the host's {@code nsenter} and {@code iptables} (the image has no
 * shell). The seed of anything random is printed so that a
 * run can be repeated ({@code -Dchaos.seed=N}).
 */
final class Faults
{
    private final ChaosCluster cluster;
    private final long startMs = System.currentTimeMillis();
    private final List<String> timeline = new ArrayList<>();
    private final long seed;
    private final Random random;

    Faults(final ChaosCluster cluster)
    {
        this.cluster = cluster;
        this.seed = Long.getLong("chaos.seed", System.nanoTime());
        this.random = new Random(seed);
        step("seed " + seed + " (rerun with -Dchaos.seed=" + seed + ")");
    }

    Random random()
    {
        return random;
    }

    long seed()
    {
        return seed;
    }

    /** Adds a line to the timeline and prints it; returns the time it happened (epoch ms). */
    long step(final String what)
    {
        return step(what, System.currentTimeMillis());
    }

    /**
     * Adds a line for an action that began at {@code beganMs} (the fault may take effect before the call that makes
     * it returns: a container unpaused runs at once); returns {@code beganMs}, the earliest the fault can have acted.
     */
    private long step(final String what, final long beganMs)
    {
        final long now = beganMs;
        final String line = String.format("t+%7.3fs %s", (now - startMs) / 1e3, what);
        synchronized (timeline)
        {
            timeline.add(line);
        }
        System.out.println("CHAOS " + line);
        return now;
    }

    String timeline()
    {
        synchronized (timeline)
        {
            return String.join("\n", timeline);
        }
    }

    /** Symmetric partition: the node leaves the network; nothing reaches it or leaves it. */
    long partition(final int node)
    {
        final long began = System.currentTimeMillis();
        cluster.docker().disconnectFromNetworkCmd().withNetworkId(cluster.network().getId())
            .withContainerId(cluster.containerId(node)).withForce(true).exec();
        return step("partition node " + node + " (disconnected from the network)", began);
    }

    /** Heals a symmetric partition: the node joins the network again at its own address. */
    long heal(final int node)
    {
        final long began = System.currentTimeMillis();
        cluster.docker().connectToNetworkCmd().withNetworkId(cluster.network().getId())
            .withContainerId(cluster.containerId(node))
            .withContainerNetwork(new ContainerNetwork().withAliases("node" + node)
                .withIpamConfig(new ContainerNetwork.Ipam().withIpv4Address(cluster.address(node))))
            .exec();
        return step("heal node " + node + " (connected again at " + cluster.address(node) + ")", began);
    }

    long pause(final int node)
    {
        final long began = System.currentTimeMillis();
        cluster.docker().pauseContainerCmd(cluster.containerId(node)).exec();
        return step("pause node " + node, began);
    }

    long unpause(final int node)
    {
        final long began = System.currentTimeMillis();
        cluster.docker().unpauseContainerCmd(cluster.containerId(node)).exec();
        return step("unpause node " + node, began);
    }

    /** {@code kill -9} of the node's process (the container stops; its file system and address stay). */
    long kill(final int node)
    {
        final long began = System.currentTimeMillis();
        cluster.docker().killContainerCmd(cluster.containerId(node)).withSignal("SIGKILL").exec();
        return step("kill -9 node " + node, began);
    }

    /** Starts a killed node's container again: same address, same data directory, so a new incarnation. */
    long restart(final int node)
    {
        final long began = System.currentTimeMillis();
        cluster.restart(node);
        return step("restart node " + node, began);
    }

    /** Drops every packet from {@code from} to {@code node}, not the other way. */
    long dropFrom(final int node, final int from)
    {
        final long began = System.currentTimeMillis();
        iptables(node, "-A", "INPUT", "-s", cluster.address(from), "-j", "DROP");
        return step("asymmetric partition: node " + node + " drops what node " + from + " sends it", began);
    }

    /**
     * Splits the cluster in two: every node of {@code side} drops what any node of {@code other} sends it, and the
     * other way round, while the nodes of each side still hear one another (iptables in each node's namespace, one
     * rule at a time: the split is whole when this returns). Heal it with {@link #clearRules} on every node still
     * running.
     *
     * @return the time the first rule went in (epoch ms); the timeline has the time the last did.
     */
    long split(final int[] side, final int[] other)
    {
        final long began = System.currentTimeMillis();
        for (final int a : side)
        {
            for (final int b : other)
            {
                iptables(a, "-A", "INPUT", "-s", cluster.address(b), "-j", "DROP");
                iptables(b, "-A", "INPUT", "-s", cluster.address(a), "-j", "DROP");
            }
        }
        step("split: nodes " + Arrays.toString(side) + " cut off from nodes " + Arrays.toString(other) + " (begun)",
            began);
        step("split whole");
        return began;
    }

    /** Drops a share of the UDP packets the node receives, at random. */
    long loss(final int node, final double probability)
    {
        final long began = System.currentTimeMillis();
        // not on loopback: a relayed node's datagrams pass through its relay on their way out
        iptables(node, "-A", "INPUT", "!", "-i", "lo", "-p", "udp", "-m", "statistic", "--mode", "random",
            "--probability", Double.toString(probability), "-j", "DROP");
        return step(String.format("loss: node %d drops %.0f%% of the UDP packets it receives", node,
            probability * 100), began);
    }

    /**
     * Delays every datagram the node sends its peers by {@code delayMs} plus a uniform jitter of up to
     * {@code jitterMs} either way (which reorders them), one way (what the peers answer is not delayed), through the
     * relays of a {@linkplain ChaosCluster#relayAll relayed} cluster: this kernel has no {@code netem}. It takes
     * effect within 50 ms.
     */
    long delay(final int node, final long delayMs, final long jitterMs)
    {
        final long began = System.currentTimeMillis();
        writeDelay(node, delayMs + " " + jitterMs + " " + random.nextLong());
        return step("delay: node " + node + "'s UDP to its peers held " + delayMs + " ms +- " + jitterMs + " ms",
            began);
    }

    /** Ends {@link #delay}: what the relay holds still goes out at its time. */
    long undelay(final int node)
    {
        final long began = System.currentTimeMillis();
        writeDelay(node, "0 0 0");
        return step("delay of node " + node + " ended", began);
    }

    private void writeDelay(final int node, final String setting)
    {
        if (!cluster.relayed())
        {
            throw new IllegalStateException("a delay needs a relayed cluster (ChaosCluster.relayAll before start)");
        }
        final Path file = cluster.ledgerDir(node).resolve("delay");
        final Path tmp = file.resolveSibling("delay.tmp");
        try
        {
            Files.writeString(tmp, setting + "\n");
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** Removes every rule {@link #dropFrom} and {@link #loss} added to the node. */
    long clearRules(final int node)
    {
        final long began = System.currentTimeMillis();
        iptables(node, "-F", "INPUT");
        return step("rules of node " + node + " cleared", began);
    }

    private void iptables(final int node, final String... args)
    {
        final String[] command = new String[args.length + 1];
        command[0] = "iptables";
        System.arraycopy(args, 0, command, 1, args.length);
        cluster.inNamespace(node, command);
    }
}
