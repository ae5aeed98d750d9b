package io.troupe.ops;

import io.troupe.node.counters.NodeCounter;
import io.troupe.node.client.ClientIngressCounter;
import io.troupe.memquota.MemoryQuotaCounter;
import io.troupe.interconnect.PeerCounter;
import io.troupe.actor.PoolCounter;
import io.troupe.node.counters.NodeState;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code troupe status}: who the node is, whether it runs and is ready, and its main figures. */
@Command(name = "status", description = "node id, incarnation, uptime, pools, quota use, peers and clients; " +
    "--check exits 1 unless the node is running, responding and ready by its own readiness")
final class StatusCommand extends ReadCommand
{
    @Option(names = "--check", description = "exit 1 if the node is not ready, 3 if its process is gone")
    boolean check;

    @Override
    int run(final NodeSnapshot node)
    {
        final List<String> peers = node.labelValues(PeerCounter.PEER_CONNECTED, "peer");
        final List<Integer> down = new ArrayList<>();
        for (final String peer : peers)
        {
            if (node.get(PeerCounter.PEER_CONNECTED, "peer", peer) == 0)
            {
                down.add(Integer.parseInt(peer));
            }
        }
        final boolean responding = node.processAlive && !node.stale() && node.file.state() != NodeState.STOPPED;
        // the node says whether it is ready (its directory replica open; with a membership, a member UP, else a
        // session with every peer): the CLI takes its word, and that it still answers
        final boolean ready = responding && node.file.state() == NodeState.RUNNING &&
            node.file.readiness().startsWith("ready");
        final long uptimeMs = Math.max(0, node.file.heartbeatEpochMs() - node.file.startEpochMs());
        final List<String> pools = node.labelValues(PoolCounter.POOL_THREADS, "pool");
        if (target.json)
        {
            final Map<String, Object> doc = node.header();
            doc.put("ready", ready);
            doc.put("readiness", node.file.readiness());
            doc.put("uptimeMs", uptimeMs);
            final List<Object> poolDocs = new ArrayList<>();
            for (final String pool : pools)
            {
                final Map<String, Object> each = new LinkedHashMap<>();
                each.put("name", pool);
                each.put("threads", node.get(PoolCounter.POOL_THREADS, "pool", pool));
                each.put("eventsHandled", node.get(PoolCounter.POOL_EVENTS_HANDLED, "pool", pool));
                each.put("busyRatio", busyRatio(node, pool));
                poolDocs.add(each);
            }
            doc.put("pools", poolDocs);
            doc.put("peers", Map.of("total", peers.size(), "up", peers.size() - down.size(), "down", down));
            doc.put("clients", Map.of("sessions", node.get(ClientIngressCounter.CLIENT_SESSIONS_OPEN),
                "asksPending", node.get(ClientIngressCounter.CLIENT_ASKS_PENDING)));
            doc.put("memquota", Map.of("usedBytes", node.get(MemoryQuotaCounter.MEMQUOTA_USED_BYTES),
                "maxBytes", node.get(MemoryQuotaCounter.MEMQUOTA_MAX_BYTES)));
            doc.put("errors", node.get(NodeCounter.AGENT_ERRORS));
            printJson(doc);
        }
        else
        {
            out().printf("node %d (cluster %s), incarnation %d, pid %d: %s%n", node.file.nodeId(),
                node.file.clusterId(), node.file.incarnation(), node.file.pid(), node.liveness());
            out().printf("up %s; counters published %s ago%n", NodeSnapshot.Duration.format(uptimeMs),
                NodeSnapshot.Duration.format(node.heartbeatAgeMs()));
            final Table table = new Table("", "");
            final String readiness = node.file.readiness();
            table.row("ready", ready ? "yes" : "no" + (down.isEmpty() ? "" : ": peers down " + down));
            if (!readiness.isEmpty() && !ready)
            {
                table.row("", readiness);
            }
            table.row("peers", (peers.size() - down.size()) + " of " + peers.size() + " up");
            table.row("clients", node.get(ClientIngressCounter.CLIENT_SESSIONS_OPEN) + " sessions, " +
                node.get(ClientIngressCounter.CLIENT_ASKS_PENDING) + " asks pending");
            for (final String pool : pools)
            {
                final long threads = node.get(PoolCounter.POOL_THREADS, "pool", pool);
                table.row("pool " + pool, threads + (threads == 1 ? " thread, " : " threads, ") +
                    node.get(PoolCounter.POOL_EVENTS_HANDLED, "pool", pool) + " events, busy " +
                    Math.round(busyRatio(node, pool) * 100) + "%");
            }
            final long max = node.get(MemoryQuotaCounter.MEMQUOTA_MAX_BYTES);
            final String used = NodeSnapshot.Duration.bytes(node.get(MemoryQuotaCounter.MEMQUOTA_USED_BYTES));
            table.row("memquota", max == 0 ? used + " (no quota: nothing is reclaimed)" :
                used + " of " + NodeSnapshot.Duration.bytes(max));
            table.row("errors", node.get(NodeCounter.AGENT_ERRORS) + (node.get(NodeCounter.AGENT_ERRORS) > 0 ?
                " (troupe errors)" : ""));
            table.print(out());
        }
        if (!check)
        {
            return TroupeCli.OK;
        }
        if (!node.processAlive)
        {
            return TroupeCli.UNREACHABLE;
        }
        return ready ? TroupeCli.OK : TroupeCli.NOT_OK;
    }

    private static double busyRatio(final NodeSnapshot node, final String pool)
    {
        final long busy = node.get(PoolCounter.POOL_BUSY_NS, "pool", pool);
        final long idle = node.get(PoolCounter.POOL_IDLE_NS, "pool", pool);
        return busy + idle == 0 ? 0.0 : Math.round(1000.0 * busy / (busy + idle)) / 1000.0;
    }
}
