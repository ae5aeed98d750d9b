package io.troupe.node.counters;

import io.troupe.actor.CreditAccountCounter;
import io.troupe.actor.CreditCounter;
import io.troupe.actor.PoolCounter;
import io.troupe.actor.SystemCounter;
import io.troupe.broker.BrokerCounter;
import io.troupe.interconnect.InterconnectCounter;
import io.troupe.interconnect.PeerCounter;
import io.troupe.interconnect.scheduler.SchedulerCounters;
import io.troupe.membership.MembershipCounter;
import io.troupe.memquota.CounterDescriptor;
import io.troupe.memquota.MemoryQuotaCounter;
import io.troupe.node.client.ClientCounter;
import io.troupe.node.client.ClientIngressCounter;
import io.troupe.node.client.ClientSessionCounter;
import io.troupe.registry.RegistryCounter;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every counter a node may have in its counters file, joined from the components' declarations
 * ({@link CounterDescriptor}s: {@link SystemCounter}, {@link PoolCounter}, {@link PeerCounter}, ...), by type id (the
 * type id of the counter's record, as in Aeron's {@code cnc.dat}). Ids never change meaning; new counters take new
 * ids. The table in {@code docs/counters.md} is made from these declarations ({@code CounterTypeTest}).
 */
public final class CounterType
{
    /** Each component's declarations, in the order of their type ids. */
    private static final List<List<? extends CounterDescriptor>> GROUPS = List.of(
        List.of(NodeCounter.values()),
        List.of(SystemCounter.values()),
        List.of(PoolCounter.values()),
        List.of(MemoryQuotaCounter.values()),
        List.of(CreditCounter.values()),
        List.of(CreditAccountCounter.values()),
        List.of(InterconnectCounter.values()),
        List.of(PeerCounter.values()),
        List.of(RegistryCounter.values()),
        List.of(ClientIngressCounter.values()),
        List.of(ClientSessionCounter.values()),
        List.of(BrokerCounter.values()),
        List.of(SchedulerCounters.Counter.values()),
        List.of(ClientCounter.values()),
        List.of(MembershipCounter.values()));

    /** Every declared counter, by type id. */
    public static final List<CounterDescriptor> ALL;

    private static final Map<Integer, CounterDescriptor> BY_ID = new HashMap<>();

    static
    {
        final List<CounterDescriptor> all = new ArrayList<>();
        final Set<String> names = new HashSet<>();
        for (final List<? extends CounterDescriptor> group : GROUPS)
        {
            for (final CounterDescriptor counter : group)
            {
                if (BY_ID.put(counter.typeId(), counter) != null || !names.add(counter.metricName()))
                {
                    throw new ExceptionInInitializerError("two counters with id " + counter.typeId() + " or name " +
                        counter.metricName());
                }
                all.add(counter);
            }
        }
        all.sort(Comparator.comparingInt(CounterDescriptor::typeId));
        ALL = List.copyOf(all);
    }

    private CounterType()
    {
    }

    /**
     * The declaration of a type id.
     *
     * @param typeId the id.
     * @return the counter, or null for an id this build does not know (a newer node's).
     */
    public static CounterDescriptor byId(final int typeId)
    {
        return BY_ID.get(typeId);
    }

    /**
     * The metric name of a type id.
     *
     * @param typeId the id.
     * @return the name, or {@code type_<id>} for an id this build does not know (a newer node's).
     */
    public static String metricName(final int typeId)
    {
        final CounterDescriptor counter = byId(typeId);
        return counter == null ? "type_" + typeId : counter.metricName();
    }

    /**
     * The kind of a type id; unknown ids are counts.
     *
     * @param typeId the id.
     * @return the kind.
     */
    public static CounterDescriptor.Kind kind(final int typeId)
    {
        final CounterDescriptor counter = byId(typeId);
        return counter == null ? CounterDescriptor.Kind.COUNT : counter.kind();
    }

    /**
     * What a type id counts.
     *
     * @param typeId the id.
     * @return its doc line, or a line saying this build does not know it.
     */
    public static String doc(final int typeId)
    {
        final CounterDescriptor counter = byId(typeId);
        return counter == null ? "counter type " + typeId + " (unknown to this build)" : counter.doc();
    }
}
