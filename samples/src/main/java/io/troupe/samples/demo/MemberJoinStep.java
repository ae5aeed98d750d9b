package io.troupe.samples.demo;

import io.troupe.actor.ActorRef;
import io.troupe.membership.table.Member;
import io.troupe.membership.table.MemberStatus;
import io.troupe.node.Node;
import io.troupe.node.local.LocalCluster;
import io.troupe.node.local.NodeProcess;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The demo's membership step: a fourth node process joins the running three with only the seeds in its config (no
 * node id, no peers: the membership assigns its id and every member opens a session to it), traffic reaches it,
 * and it leaves gracefully; {@code troupe members} shows the table before and after.
 */
final class MemberJoinStep
{
    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(45);
    private static final Duration LEAVE_TIMEOUT = Duration.ofSeconds(15);
    private static final int ASKS = 100;

    private final ClusterDemo demo;
    private final PrintStream out;
    private final LocalCluster cluster;
    private final Node one;

    MemberJoinStep(final ClusterDemo demo, final PrintStream out, final LocalCluster cluster, final Node one)
    {
        this.demo = demo;
        this.out = out;
        this.cluster = cluster;
        this.one = one;
    }

    void run() throws InterruptedException
    {
        final String dataDir = one.config().dataDir().toString();
        demo.cliRun("members", "--data-dir", dataDir);
        final Path file = cluster.writeJoinerFile("node-4");
        out.printf("join      a fourth node process, its config with no node id and no peers, only the seeds: %s%n",
            file);
        final long startNs = System.nanoTime();
        final NodeProcess four = cluster.start(4, DemoNode.class.getName(), List.of("--config", file.toString()));
        final Member joined = awaitJoined(four);
        final int id = joined.nodeId();
        out.printf("          it joined as node %d (incarnation %d, epoch %d); node 1 saw it up and opened a session " +
            "to it after %s%n", id, joined.incarnation(), one.membership().epoch(),
            ClusterDemo.millis(System.nanoTime() - startNs));
        traffic(id);
        demo.cliRun("members", "--data-dir", dataDir);

        final long leaveNs = System.nanoTime();
        four.terminate();
        final long deadlineNs = leaveNs + LEAVE_TIMEOUT.toNanos();
        while (member(id).isPresent())
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new ClusterDemo.DemoFailure("node " + id + " was still a member " + LEAVE_TIMEOUT.toSeconds() +
                    " s after its SIGTERM: " + one.membership().members());
            }
            TimeUnit.MILLISECONDS.sleep(5);
        }
        final long leftNs = System.nanoTime() - leaveNs;
        final Integer exitCode = four.awaitExit(LEAVE_TIMEOUT);
        if (exitCode == null || exitCode != 0)
        {
            throw new ClusterDemo.DemoFailure("node " + id + " did not exit with 0 after its SIGTERM (" + exitCode +
                "); the end of its log:" + System.lineSeparator() + four.logTail(15));
        }
        out.printf("leave     SIGTERM to node %d: it recorded its leave and node 1 saw it LEFT after %s; it exited " +
            "with 0; %d members now (epoch %d)%n", id, ClusterDemo.millis(leftNs), one.membership().members().size(),
            one.membership().epoch());
    }

    private Member awaitJoined(final NodeProcess four) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + JOIN_TIMEOUT.toNanos();
        while (true)
        {
            if (!four.isAlive())
            {
                throw new ClusterDemo.DemoFailure("the fourth node exited with " + four.awaitExit(Duration.ZERO) +
                    " while joining; the end of its log:" + System.lineSeparator() + four.logTail(15));
            }
            final Optional<Member> joined = one.membership().members().stream()
                .filter(m -> m.nodeId() > 3 && m.status() == MemberStatus.UP).findFirst();
            if (joined.isPresent() && one.interconnect().isConnected(joined.get().nodeId()))
            {
                return joined.get();
            }
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new ClusterDemo.DemoFailure("the fourth node was not up and connected after " +
                    JOIN_TIMEOUT.toSeconds() + " s; node 1 sees " + one.membership().members() + "; the end of " +
                    "its log:" + System.lineSeparator() + four.logTail(15));
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }

    private void traffic(final int id) throws InterruptedException
    {
        final ActorRef<DemoEvents.EchoRequest> echo = DemoEvents.ECHO.on(id);
        final long[] latencies = new long[ASKS];
        for (int i = 0; i < ASKS; i++)
        {
            final long askNs = System.nanoTime();
            final DemoEvents.Text reply = ClusterDemo.echo(one.system(), echo, "to the new member " + i);
            latencies[i] = System.nanoTime() - askNs;
            if (!reply.text().endsWith("to the new member " + i))
            {
                throw new ClusterDemo.DemoFailure("node " + id + "'s echo service answered " + reply);
            }
        }
        Arrays.sort(latencies);
        out.printf(Locale.ROOT, "          %d asks of %s, one after another: p50 %s, p99 %s%n", ASKS, echo,
            ClusterDemo.millis(ClusterDemo.percentile(latencies, 0.50)),
            ClusterDemo.millis(ClusterDemo.percentile(latencies, 0.99)));
    }

    private Optional<Member> member(final int id)
    {
        return one.membership().members().stream().filter(m -> m.nodeId() == id).findFirst();
    }
}
