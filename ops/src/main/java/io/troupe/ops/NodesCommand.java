package io.troupe.ops;

import io.troupe.interconnect.PeerCounter;
import picocli.CommandLine.Command;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code troupe nodes}: the node's peers, whether each is connected, and the traffic with it. */
@Command(name = "nodes", description = "the node's peers: connected or not, incarnation, events and bytes each way, " +
    "queue depth, heartbeat round trip")
final class NodesCommand extends ReadCommand
{
    @Override
    int run(final NodeSnapshot node)
    {
        final List<String> peers = node.labelValues(PeerCounter.PEER_CONNECTED, "peer");
        if (target.json)
        {
            final List<Object> docs = new ArrayList<>();
            for (final String peer : peers)
            {
                final Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("nodeId", Integer.parseInt(peer));
                doc.put("connected", node.get(PeerCounter.PEER_CONNECTED, "peer", peer) == 1);
                doc.put("incarnation", node.get(PeerCounter.PEER_INCARNATION, "peer", peer));
                doc.put("eventsOut", node.get(PeerCounter.PEER_EVENTS_OUT, "peer", peer));
                doc.put("eventsIn", node.get(PeerCounter.PEER_EVENTS_IN, "peer", peer));
                doc.put("bytesOut", node.get(PeerCounter.PEER_BYTES_OUT, "peer", peer));
                doc.put("bytesIn", node.get(PeerCounter.PEER_BYTES_IN, "peer", peer));
                doc.put("queueDepth", node.get(PeerCounter.PEER_QUEUE_DEPTH, "peer", peer));
                doc.put("rttSmoothedNs", node.get(PeerCounter.PEER_RTT_SMOOTHED_NS, "peer", peer));
                doc.put("sessionsUp", node.get(PeerCounter.PEER_SESSIONS_UP, "peer", peer));
                doc.put("sessionsDown", node.get(PeerCounter.PEER_SESSIONS_DOWN, "peer", peer));
                doc.put("handshakesRefused", node.get(PeerCounter.PEER_HANDSHAKES_REFUSED, "peer", peer));
                docs.add(doc);
            }
            final Map<String, Object> doc = node.header();
            doc.put("peers", docs);
            printJson(doc);
            return TroupeCli.OK;
        }
        noteLiveness(node);
        final Table table = new Table("node", "state", "incarnation", "events out", "events in", "bytes out",
            "bytes in", "queued", "rtt us", "sessions up/down");
        for (final String peer : peers)
        {
            table.row(peer, node.get(PeerCounter.PEER_CONNECTED, "peer", peer) == 1 ? "up" : "down",
                node.get(PeerCounter.PEER_INCARNATION, "peer", peer),
                node.get(PeerCounter.PEER_EVENTS_OUT, "peer", peer), node.get(PeerCounter.PEER_EVENTS_IN, "peer", peer),
                node.get(PeerCounter.PEER_BYTES_OUT, "peer", peer), node.get(PeerCounter.PEER_BYTES_IN, "peer", peer),
                node.get(PeerCounter.PEER_QUEUE_DEPTH, "peer", peer),
                node.get(PeerCounter.PEER_RTT_SMOOTHED_NS, "peer", peer) / 1000,
                node.get(PeerCounter.PEER_SESSIONS_UP, "peer", peer) + "/" +
                    node.get(PeerCounter.PEER_SESSIONS_DOWN, "peer", peer));
        }
        if (table.isEmpty())
        {
            out().println("node " + node.file.nodeId() + " has no peers");
        }
        else
        {
            table.print(out());
        }
        return TroupeCli.OK;
    }
}
