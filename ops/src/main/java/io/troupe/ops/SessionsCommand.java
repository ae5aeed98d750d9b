package io.troupe.ops;

import io.troupe.node.client.ClientSessionCounter;
import io.troupe.node.client.ClientIngressCounter;
import io.troupe.interconnect.PeerCounter;
import io.troupe.node.client.ClientCounter;
import io.troupe.node.counters.CounterRecord;
import picocli.CommandLine.Command;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code troupe sessions}: sessions with peers (up now, ever up and down, refused) and with clients. */
@Command(name = "sessions", description = "sessions with peers (up, ended, handshakes refused, events lost at " +
    "their end) and client sessions (open, opened, ended, refused)")
final class SessionsCommand extends ReadCommand
{
    @Override
    int run(final NodeSnapshot node)
    {
        final List<String> peers = node.labelValues(PeerCounter.PEER_CONNECTED, "peer");
        final long clientsRefused = node.clientCount(ClientCounter.REFUSED_VERSION) +
            node.clientCount(ClientCounter.REFUSED_CLUSTER) + node.clientCount(ClientCounter.REFUSED_SECRET) +
            node.clientCount(ClientCounter.REFUSED_PROTECTION) + node.clientCount(ClientCounter.REFUSED_CAPACITY) +
            node.clientCount(ClientCounter.REFUSED_ENDPOINT);
        if (target.json)
        {
            final List<Object> docs = new ArrayList<>();
            for (final String peer : peers)
            {
                final Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("nodeId", Integer.parseInt(peer));
                doc.put("up", node.get(PeerCounter.PEER_CONNECTED, "peer", peer) == 1);
                doc.put("incarnation", node.get(PeerCounter.PEER_INCARNATION, "peer", peer));
                doc.put("sessionsUp", node.get(PeerCounter.PEER_SESSIONS_UP, "peer", peer));
                doc.put("sessionsDown", node.get(PeerCounter.PEER_SESSIONS_DOWN, "peer", peer));
                doc.put("handshakesRefused", node.get(PeerCounter.PEER_HANDSHAKES_REFUSED, "peer", peer));
                doc.put("lostUnsure", node.get(PeerCounter.PEER_LOST_UNSURE, "peer", peer));
                doc.put("lostQueued", node.get(PeerCounter.PEER_LOST_QUEUED, "peer", peer));
                docs.add(doc);
            }
            final Map<String, Object> clients = new LinkedHashMap<>();
            clients.put("open", node.get(ClientIngressCounter.CLIENT_SESSIONS_OPEN));
            clients.put("opened", node.clientCount(ClientCounter.SESSIONS_OPENED));
            clients.put("ended", node.clientCount(ClientCounter.SESSIONS_ENDED));
            clients.put("timedOut", node.clientCount(ClientCounter.SESSIONS_TIMED_OUT));
            clients.put("refused", clientsRefused);
            clients.put("asksPending", node.get(ClientIngressCounter.CLIENT_ASKS_PENDING));
            clients.put("list", clientSessions(node));
            final Map<String, Object> doc = node.header();
            doc.put("peerSessions", docs);
            doc.put("clientSessions", clients);
            printJson(doc);
            return TroupeCli.OK;
        }
        noteLiveness(node);
        final Table table = new Table("peer", "session", "incarnation", "up", "ended", "refused", "lost unsure",
            "lost queued");
        for (final String peer : peers)
        {
            table.row(peer, node.get(PeerCounter.PEER_CONNECTED, "peer", peer) == 1 ? "up" : "down",
                node.get(PeerCounter.PEER_INCARNATION, "peer", peer),
                node.get(PeerCounter.PEER_SESSIONS_UP, "peer", peer),
                node.get(PeerCounter.PEER_SESSIONS_DOWN, "peer", peer),
                node.get(PeerCounter.PEER_HANDSHAKES_REFUSED, "peer", peer),
                node.get(PeerCounter.PEER_LOST_UNSURE, "peer", peer),
                node.get(PeerCounter.PEER_LOST_QUEUED, "peer", peer));
        }
        if (!table.isEmpty())
        {
            table.print(out());
        }
        out().printf("clients: %d open (%d opened, %d ended, %d timed out, %d refused), %d asks pending%n",
            node.get(ClientIngressCounter.CLIENT_SESSIONS_OPEN), node.clientCount(ClientCounter.SESSIONS_OPENED),
            node.clientCount(ClientCounter.SESSIONS_ENDED), node.clientCount(ClientCounter.SESSIONS_TIMED_OUT),
            clientsRefused, node.get(ClientIngressCounter.CLIENT_ASKS_PENDING));
        final Table clients = new Table("client", "session", "events in", "asks in", "messages out", "asks pending",
            "debt");
        for (final Map<String, Object> session : clientSessions(node))
        {
            clients.row(session.get("clientId"), session.get("sessionId"), session.get("eventsIn"),
                session.get("asksIn"), session.get("messagesOut"), session.get("asksPending"), session.get("debt"));
        }
        if (!clients.isEmpty())
        {
            clients.print(out());
        }
        return TroupeCli.OK;
    }

    /** The open client sessions, one by one. */
    private static List<Map<String, Object>> clientSessions(final NodeSnapshot node)
    {
        final List<Map<String, Object>> list = new ArrayList<>();
        for (final String session : node.labelValues(ClientSessionCounter.CLIENT_SESSION_EVENTS_IN, "session"))
        {
            final CounterRecord events = node.record(ClientSessionCounter.CLIENT_SESSION_EVENTS_IN, "session", session);
            final Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("clientId", Long.parseLong(events.labels().get("client")));
            doc.put("sessionId", Long.parseLong(session));
            doc.put("eventsIn", events.value());
            doc.put("asksIn", node.get(ClientSessionCounter.CLIENT_SESSION_ASKS_IN, "session", session));
            doc.put("messagesOut", node.get(ClientSessionCounter.CLIENT_SESSION_MESSAGES_OUT, "session", session));
            doc.put("asksPending", node.get(ClientSessionCounter.CLIENT_SESSION_ASKS_PENDING, "session", session));
            doc.put("debt", node.get(ClientSessionCounter.CLIENT_SESSION_DEBT, "session", session));
            list.add(doc);
        }
        return list;
    }
}
