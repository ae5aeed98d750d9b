package io.troupe.broker;

import io.troupe.memquota.CounterDescriptor;

import static io.troupe.memquota.CounterDescriptor.count;
import static io.troupe.memquota.CounterDescriptor.gauge;

/**
 * The counters of one named broker (type ids 900..949, label {@code broker}), each read from its
 * {@link BrokerGauges} (sojourns against {@link System#nanoTime()}, the brokers' clock).
 */
public enum BrokerCounter implements CounterDescriptor.Of<BrokerGauges>
{
    /** Requests waiting on the ask side. */
    BROKER_ASK_QUEUE(gauge(900, "broker_ask_queue", "broker",
        "requests waiting on the ask side", c -> c.length(Side.ASK))),
    /** Requests waiting on the askR side. */
    BROKER_ASKR_QUEUE(gauge(901, "broker_askr_queue", "broker",
        "requests waiting on the askR side", c -> c.length(Side.ASK_R))),
    /** How long the oldest waiting ask has waited, ns. */
    BROKER_ASK_SOJOURN_NS(gauge(902, "broker_ask_sojourn_ns", "broker",
        "how long the oldest waiting ask has waited, ns", c -> c.headSojournNs(Side.ASK, System.nanoTime()))),
    /** How long the oldest waiting askR has waited, ns. */
    BROKER_ASKR_SOJOURN_NS(gauge(903, "broker_askr_sojourn_ns", "broker",
        "how long the oldest waiting askR has waited, ns", c -> c.headSojournNs(Side.ASK_R, System.nanoTime()))),
    /** Asks that got Go. */
    BROKER_ASK_MATCHES(count(904, "broker_ask_matches", "broker", "asks that got Go", c -> c.matches(Side.ASK))),
    /** AskRs that got Go. */
    BROKER_ASKR_MATCHES(count(905, "broker_askr_matches", "broker",
        "askRs that got Go", c -> c.matches(Side.ASK_R))),
    /** Asks that got Drop (policy, full queue, nobody waiting). */
    BROKER_ASK_DROPS(count(906, "broker_ask_drops", "broker",
        "asks that got Drop (policy, full queue, nobody waiting)", c -> c.drops(Side.ASK))),
    /** AskRs that got Drop. */
    BROKER_ASKR_DROPS(count(907, "broker_askr_drops", "broker", "askRs that got Drop", c -> c.drops(Side.ASK_R))),
    /** Sojourn of the last ask matched or dropped, ns. */
    BROKER_ASK_LAST_SOJOURN_NS(gauge(908, "broker_ask_last_sojourn_ns", "broker",
        "sojourn of the last ask matched or dropped, ns", c -> c.lastSojournNs(Side.ASK))),
    /** Sojourn of the last askR matched or dropped, ns. */
    BROKER_ASKR_LAST_SOJOURN_NS(gauge(909, "broker_askr_last_sojourn_ns", "broker",
        "sojourn of the last askR matched or dropped, ns", c -> c.lastSojournNs(Side.ASK_R))),
    /** Requests cancelled by their askers. */
    BROKER_CANCELS(count(910, "broker_cancels", "broker",
        "requests cancelled by their askers", BrokerGauges::cancels)),
    /** Queued requests of a disconnected node, forgotten. */
    BROKER_PURGED(count(911, "broker_purged", "broker",
        "queued requests of a disconnected node, forgotten", BrokerGauges::purged)),
    /** The broker's alarms up now. */
    BROKER_ALARMS_RAISED(gauge(912, "broker_alarms_raised", "broker",
        "the broker's alarms up now", BrokerGauges::alarmsRaised)),
    /** Configurations applied since start; the label ends with the configuration now. */
    BROKER_RECONFIGURATIONS(count(913, "broker_reconfigurations", "broker",
        "configurations applied since start; the label ends with the configuration now",
        null)); // set by the node's publisher: the label first, then the count it goes with

    private final Declaration<BrokerGauges> declaration;

    BrokerCounter(final Declaration<BrokerGauges> declaration)
    {
        this.declaration = declaration;
    }

    @Override
    public Declaration<BrokerGauges> declaration()
    {
        return declaration;
    }
}
