package io.troupe.ops;

import io.troupe.broker.BrokerCounter;
import io.troupe.node.counters.CounterRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code troupe brokers [NAME]}: the node's named brokers, their queues, sojourn, matches, drops and config. */
@Command(name = "brokers", description = "the node's named brokers (Node.brokers()): requests waiting per side and " +
    "how long the oldest has waited, matches and drops per side, cancels, alarms up, and the configuration now " +
    "(change it with troupe broker set)")
final class BrokersCommand extends ReadCommand
{
    @Parameters(arity = "0..1", paramLabel = "NAME", description = "only this broker")
    String name;

    @Override
    int run(final NodeSnapshot node)
    {
        final List<String> names = node.labelValues(BrokerCounter.BROKER_RECONFIGURATIONS, "broker");
        if (name != null && !names.contains(name))
        {
            throw new CliException(TroupeCli.NOT_OK, "node " + node.file.nodeId() + " has no broker named '" + name +
                "'" + (names.isEmpty() ? " (it runs none)" : " (it runs " + String.join(", ", names) + ")"));
        }
        final List<Map<String, Object>> brokers = new ArrayList<>();
        for (final String broker : names)
        {
            if (name == null || name.equals(broker))
            {
                brokers.add(figures(node, broker));
            }
        }
        if (target.json)
        {
            final Map<String, Object> doc = node.header();
            doc.put("brokers", brokers);
            printJson(doc);
            return TroupeCli.OK;
        }
        noteLiveness(node);
        if (brokers.isEmpty())
        {
            out().println("node " + node.file.nodeId() + " runs no named broker");
            return TroupeCli.OK;
        }
        final Table table = new Table("broker", "ask queue", "askR queue", "ask waited", "askR waited", "ask go",
            "ask drop", "askR go", "askR drop", "cancels", "alarms");
        for (final Map<String, Object> broker : brokers)
        {
            table.row(broker.get("name"), broker.get("askQueue"), broker.get("askRQueue"),
                NodeSnapshot.Duration.nanos((Long)broker.get("askSojournNs")),
                NodeSnapshot.Duration.nanos((Long)broker.get("askRSojournNs")), broker.get("askMatches"),
                broker.get("askDrops"), broker.get("askRMatches"), broker.get("askRDrops"), broker.get("cancels"),
                broker.get("alarmsRaised"));
        }
        table.print(out());
        for (final Map<String, Object> broker : brokers)
        {
            out().println(broker.get("name") + ": " + broker.get("config"));
        }
        return TroupeCli.OK;
    }

    private static Map<String, Object> figures(final NodeSnapshot node, final String broker)
    {
        final Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("name", broker);
        doc.put("askQueue", node.get(BrokerCounter.BROKER_ASK_QUEUE, "broker", broker));
        doc.put("askRQueue", node.get(BrokerCounter.BROKER_ASKR_QUEUE, "broker", broker));
        doc.put("askSojournNs", node.get(BrokerCounter.BROKER_ASK_SOJOURN_NS, "broker", broker));
        doc.put("askRSojournNs", node.get(BrokerCounter.BROKER_ASKR_SOJOURN_NS, "broker", broker));
        doc.put("askMatches", node.get(BrokerCounter.BROKER_ASK_MATCHES, "broker", broker));
        doc.put("askRMatches", node.get(BrokerCounter.BROKER_ASKR_MATCHES, "broker", broker));
        doc.put("askDrops", node.get(BrokerCounter.BROKER_ASK_DROPS, "broker", broker));
        doc.put("askRDrops", node.get(BrokerCounter.BROKER_ASKR_DROPS, "broker", broker));
        doc.put("askLastSojournNs", node.get(BrokerCounter.BROKER_ASK_LAST_SOJOURN_NS, "broker", broker));
        doc.put("askRLastSojournNs", node.get(BrokerCounter.BROKER_ASKR_LAST_SOJOURN_NS, "broker", broker));
        doc.put("cancels", node.get(BrokerCounter.BROKER_CANCELS, "broker", broker));
        doc.put("purged", node.get(BrokerCounter.BROKER_PURGED, "broker", broker));
        doc.put("alarmsRaised", node.get(BrokerCounter.BROKER_ALARMS_RAISED, "broker", broker));
        final CounterRecord config = node.record(BrokerCounter.BROKER_RECONFIGURATIONS, "broker", broker);
        doc.put("reconfigurations", config == null ? 0L : config.value());
        doc.put("config", config == null ? "" : config.description());
        return doc;
    }
}
