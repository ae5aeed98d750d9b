package io.troupe.actor.internal;

import io.troupe.actor.ActorId;
import io.troupe.actor.ServiceId;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ServiceTableTest
{
    private final ServiceTable table = new ServiceTable();

    @Test
    void emptyTableFindsNothing()
    {
        assertThat(table.lookup(ServiceId.of(0, "logger"))).isNull();
        assertThat(table.size()).isZero();
    }

    @Test
    void putThenLookup()
    {
        final ActorId actor = ActorId.of(0, 42L, 7);

        assertThat(table.put(ServiceId.of(0, "logger"), actor)).isNull();

        assertThat(table.lookup(ServiceId.of(0, "logger"))).isSameAs(actor);
        assertThat(table.lookup(ServiceId.of(0, "logge"))).isNull();
        assertThat(table.lookup(ServiceId.of(0, "loggers"))).isNull();
        assertThat(table.size()).isEqualTo(1);
    }

    @Test
    void putReturnsAndReplacesThePreviousMapping()
    {
        final ServiceId service = ServiceId.of(0, "registry");
        final ActorId first = ActorId.of(0, 1L, 1);
        final ActorId second = ActorId.of(0, 2L, 2);

        assertThat(table.put(service, first)).isNull();
        assertThat(table.put(service, second)).isSameAs(first);

        assertThat(table.lookup(service)).isSameAs(second);
        assertThat(table.size()).isEqualTo(1);
    }

    @Test
    void theNodeOfTheServiceIdIsIgnored()
    {
        final ActorId actor = ActorId.of(0, 42L, 7);
        final ActorId other = ActorId.of(0, 43L, 8);

        table.put(ServiceId.of(0, "broker"), actor);

        assertThat(table.lookup(ServiceId.of(5, "broker"))).isSameAs(actor);
        assertThat(table.lookup(ServiceId.of(ActorId.MAX_NODE_ID, "broker"))).isSameAs(actor);
        assertThat(table.put(ServiceId.of(5, "broker"), other)).isSameAs(actor);
        assertThat(table.lookup(ServiceId.of(0, "broker"))).isSameAs(other);
        assertThat(table.size()).isEqualTo(1);
        assertThat(table.remove(ServiceId.of(9, "broker"))).isSameAs(other);
        assertThat(table.lookup(ServiceId.of(0, "broker"))).isNull();
        assertThat(table.size()).isZero();
    }

    @Test
    void namesThatDifferOnlyInTheLastFourBytesAreDifferentKeys()
    {
        final ActorId a = ActorId.of(0, 1L, 1);
        final ActorId b = ActorId.of(0, 2L, 2);

        table.put(ServiceId.of(0, "abcdefghWXYZ"), a);
        table.put(ServiceId.of(0, "abcdefghWXYy"), b);

        assertThat(table.lookup(ServiceId.of(0, "abcdefghWXYZ"))).isSameAs(a);
        assertThat(table.lookup(ServiceId.of(0, "abcdefghWXYy"))).isSameAs(b);
        assertThat(table.lookup(ServiceId.of(0, "abcdefgh"))).isNull();
        assertThat(table.size()).isEqualTo(2);
    }

    @Test
    void removeReturnsTheMappingAndForgetsIt()
    {
        final ServiceId service = ServiceId.of(0, "timer");
        final ActorId actor = ActorId.of(0, 3L, 3);
        table.put(service, actor);

        assertThat(table.remove(service)).isSameAs(actor);

        assertThat(table.lookup(service)).isNull();
        assertThat(table.size()).isZero();
        assertThat(table.remove(service)).isNull();
    }

    @Test
    void removeOfAMissingNameReturnsNullAndKeepsTheRest()
    {
        final ActorId actor = ActorId.of(0, 3L, 3);
        table.put(ServiceId.of(0, "present"), actor);

        assertThat(table.remove(ServiceId.of(0, "absent"))).isNull();

        assertThat(table.lookup(ServiceId.of(0, "present"))).isSameAs(actor);
        assertThat(table.size()).isEqualTo(1);
    }

    @Test
    void growsPastItsInitialCapacity()
    {
        final int count = 1000;
        for (int i = 0; i < count; i++)
        {
            assertThat(table.put(ServiceId.of(0, "svc" + i), ActorId.of(0, i + 1L, i + 1))).isNull();
        }

        assertThat(table.size()).isEqualTo(count);
        for (int i = 0; i < count; i++)
        {
            assertThat(table.lookup(ServiceId.of(i % 7, "svc" + i))).isEqualTo(ActorId.of(0, i + 1L, i + 1));
        }
        assertThat(table.lookup(ServiceId.of(0, "svc" + count))).isNull();
    }

    @Test
    void removingSomeEntriesKeepsEveryOtherReachable()
    {
        // many entries collide in a linear-probe table; removing must not cut the probe chains of the others
        final int count = 1000;
        for (int i = 0; i < count; i++)
        {
            table.put(ServiceId.of(0, "s" + i), ActorId.of(0, i + 1L, i + 1));
        }
        for (int i = 0; i < count; i += 2)
        {
            assertThat(table.remove(ServiceId.of(0, "s" + i))).isEqualTo(ActorId.of(0, i + 1L, i + 1));
        }

        assertThat(table.size()).isEqualTo(count / 2);
        for (int i = 0; i < count; i++)
        {
            final ActorId found = table.lookup(ServiceId.of(0, "s" + i));
            if (i % 2 == 0)
            {
                assertThat(found).as("s" + i).isNull();
            }
            else
            {
                assertThat(found).as("s" + i).isEqualTo(ActorId.of(0, i + 1L, i + 1));
            }
        }
    }

    @Test
    void aSnapshotReadBeforeAChangeStaysConsistent()
    {
        final ServiceId service = ServiceId.of(0, "cow");
        final ActorId actor = ActorId.of(0, 5L, 5);
        table.put(service, actor);

        for (int i = 0; i < 100; i++)
        {
            table.put(ServiceId.of(0, "other" + i), ActorId.of(0, 100L + i, 1));
            assertThat(table.lookup(service)).isSameAs(actor);
        }
    }
}
