package io.troupe.broker;

import io.troupe.memquota.CounterDescriptor;

import java.util.function.ToLongFunction;

/**
 * The counters of one named broker (type ids 900..949, label {@code broker}), each read from its
 * {@link BrokerGauges} (sojourns against {@link System#nanoTime()}, the brokers' clock).
 */
public enum BrokerCounter implements CounterDescriptor.Of<BrokerGauges>
{
    /** Requests waiting on the ask side. */
    BROKER_ASK_QUEUE(900, "broker_ask_queue", Kind.GAUGE, "broker",
        "requests waiting on the ask side", c -> c.length(Side.ASK)),
    /** Requests waiting on the askR side. */
    BROKER_ASKR_QUEUE(901, "broker_askr_queue", Kind.GAUGE, "broker",
        "requests waiting on the askR side", c -> c.length(Side.ASK_R)),
    /** How long the oldest waiting ask has waited, ns. */
    BROKER_ASK_SOJOURN_NS(902, "broker_ask_sojourn_ns", Kind.GAUGE, "broker",
        "how long the oldest waiting ask has waited, ns", c -> c.headSojournNs(Side.ASK, System.nanoTime())),
    /** How long the oldest waiting askR has waited, ns. */
    BROKER_ASKR_SOJOURN_NS(903, "broker_askr_sojourn_ns", Kind.GAUGE, "broker",
        "how long the oldest waiting askR has waited, ns", c -> c.headSojournNs(Side.ASK_R, System.nanoTime())),
    /** Asks that got Go. */
    BROKER_ASK_MATCHES(904, "broker_ask_matches", Kind.COUNT, "broker", "asks that got Go", c -> c.matches(Side.ASK)),
    /** AskRs that got Go. */
    BROKER_ASKR_MATCHES(905, "broker_askr_matches", Kind.COUNT, "broker",
        "askRs that got Go", c -> c.matches(Side.ASK_R)),
    /** Asks that got Drop (policy, full queue, nobody waiting). */
    BROKER_ASK_DROPS(906, "broker_ask_drops", Kind.COUNT, "broker",
        "asks that got Drop (policy, full queue, nobody waiting)", c -> c.drops(Side.ASK)),
    /** AskRs that got Drop. */
    BROKER_ASKR_DROPS(907, "broker_askr_drops", Kind.COUNT, "broker", "askRs that got Drop", c -> c.drops(Side.ASK_R)),
    /** Sojourn of the last ask matched or dropped, ns. */
    BROKER_ASK_LAST_SOJOURN_NS(908, "broker_ask_last_sojourn_ns", Kind.GAUGE, "broker",
        "sojourn of the last ask matched or dropped, ns", c -> c.lastSojournNs(Side.ASK)),
    /** Sojourn of the last askR matched or dropped, ns. */
    BROKER_ASKR_LAST_SOJOURN_NS(909, "broker_askr_last_sojourn_ns", Kind.GAUGE, "broker",
        "sojourn of the last askR matched or dropped, ns", c -> c.lastSojournNs(Side.ASK_R)),
    /** Requests cancelled by their askers. */
    BROKER_CANCELS(910, "broker_cancels", Kind.COUNT, "broker",
        "requests cancelled by their askers", BrokerGauges::cancels),
    /** Queued requests of a disconnected node, forgotten. */
    BROKER_PURGED(911, "broker_purged", Kind.COUNT, "broker",
        "queued requests of a disconnected node, forgotten", BrokerGauges::purged),
    /** The broker's alarms up now. */
    BROKER_ALARMS_RAISED(912, "broker_alarms_raised", Kind.GAUGE, "broker",
        "the broker's alarms up now", BrokerGauges::alarmsRaised),
    /** Configurations applied since start; the label ends with the configuration now. */
    BROKER_RECONFIGURATIONS(913, "broker_reconfigurations", Kind.COUNT, "broker",
        "configurations applied since start; the label ends with the configuration now",
        null); // set by the node's publisher: the label first, then the count it goes with

    private final Declaration declaration;
    private final ToLongFunction<BrokerGauges> reader;

    BrokerCounter(final int typeId, final String metricName, final Kind kind, final String labels,
        final String doc, final ToLongFunction<BrokerGauges> reader)
    {
        this.declaration = new Declaration(typeId, metricName, kind, labels, doc);
        this.reader = reader;
    }

    @Override
    public Declaration declaration()
    {
        return declaration;
    }

    @Override
    public ToLongFunction<BrokerGauges> reader()
    {
        return reader;
    }
}
