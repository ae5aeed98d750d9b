package io.troupe.node.counters;

import io.troupe.node.client.ClientCounter;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class CounterTypeTest
{
    @Test
    void idsAndNamesAreUniqueAndNamesAreMetricNames()
    {
        final Set<String> names = new HashSet<>();
        for (final CounterType type : CounterType.values())
        {
            assertThat(names.add(type.metricName())).as(type.metricName()).isTrue();
            assertThat(type.metricName()).matches("[a-z][a-z0-9_]*");
            assertThat(type.id()).isBetween(1, CounterType.CLIENT_BASE - 1);
            assertThat(CounterType.metricName(type.id())).isEqualTo(type.metricName());
            assertThat(CounterType.kind(type.id())).isEqualTo(type.kind());
        }
        for (final ClientCounter counter : ClientCounter.values())
        {
            assertThat(names.add(CounterType.metricName(CounterType.clientTypeId(counter)))).isTrue();
        }
        assertThat(CounterType.metricName(99_999)).isEqualTo("type_99999");
    }

    @Test
    void docsCountersMdListsEveryTypeWithItsIdNameAndKind() throws IOException
    {
        final String docs = Files.readString(Path.of("..", "docs", "counters.md"));
        for (final CounterType type : CounterType.values())
        {
            assertThat(docs).as("docs/counters.md lists " + type).containsPattern("\\| " + type.id() + " \\| `" +
                type.metricName() + "` \\| " + type.kind().name().toLowerCase(Locale.ROOT) + " \\|");
        }
        for (final ClientCounter counter : ClientCounter.values())
        {
            final int id = CounterType.clientTypeId(counter);
            assertThat(docs).as("docs/counters.md lists " + counter)
                .contains("| " + id + " | `" + CounterType.metricName(id) + "` |");
        }
    }
}
