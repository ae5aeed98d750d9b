package io.troupe.node.counters;

import io.troupe.testing.GeneratedFile;
import io.troupe.actor.SystemCounter;
import io.troupe.interconnect.PeerCounter;
import io.troupe.memquota.CounterDescriptor;
import io.troupe.node.client.ClientCounter;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The counter declarations ({@link CounterDescriptor}) are the one place a counter is described: the table in
 * {@code docs/counters.md} is made from them. This test fails when the table and the declarations differ and says how
 * to make it again: {@code ./mvnw -pl cluster-node -am test -Dtest=CounterTypeTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dtroupe.counters.write=true} rewrites the table (the prose above and below
 * it stays).
 */
class CounterTypeTest
{
    private static final Path DOCS = Path.of("..", "docs", "counters.md");
    private static final boolean WRITE = Boolean.getBoolean("troupe.counters.write");
    private static final String REWRITE = "./mvnw -pl cluster-node -am test -Dtest=CounterTypeTest " +
        "-Dsurefire.failIfNoSpecifiedTests=false -Dtroupe.counters.write=true";
    private static final String HEADER = "| type id | name | kind | labels | meaning |";

    @Test
    void idsAndNamesAreUniqueAndAnswerByTypeId()
    {
        assertThat(CounterType.ALL).extracting(CounterDescriptor::typeId).doesNotHaveDuplicates().isSorted();
        assertThat(CounterType.ALL).extracting(CounterDescriptor::metricName).doesNotHaveDuplicates();
        for (final CounterDescriptor counter : CounterType.ALL)
        {
            assertThat(CounterType.byId(counter.typeId())).isSameAs(counter);
            assertThat(CounterType.metricName(counter.typeId())).isEqualTo(counter.metricName());
            assertThat(CounterType.kind(counter.typeId())).isEqualTo(counter.kind());
        }
        assertThat(CounterType.metricName(99_999)).isEqualTo("type_99999");
        assertThat(CounterType.kind(99_999)).isEqualTo(CounterDescriptor.Kind.COUNT);
    }

    @Test
    void typeIdsAndNamesAreTheOnesOperatorsKnow()
    {
        // ids and names never change meaning: the ops CLI and dashboards read them
        assertThat(NodeCounter.AGENT_ERRORS.typeId()).isEqualTo(100);
        assertThat(SystemCounter.ACTORS_REGISTERED.typeId()).isEqualTo(101);
        assertThat(SystemCounter.UNHANDLED_EVENTS.typeId()).isEqualTo(119);
        assertThat(NodeCounter.CREDIT_ACCOUNTS_UNPUBLISHED.typeId()).isEqualTo(413);
        assertThat(PeerCounter.PEER_SCHEDULED_IN_FLIGHT.typeId()).isEqualTo(620);
        assertThat(ClientCounter.SESSIONS_OPENED.typeId()).isEqualTo(1000);
        assertThat(ClientCounter.SESSIONS_OPENED.metricName()).isEqualTo("client_sessions_opened");
        assertThat(ClientCounter.THROTTLED.typeId()).isEqualTo(1032);
        assertThat(CounterType.metricName(964)).isEqualTo("scheduler_callback_errors");
    }

    @Test
    void docsCountersMdHasTheTableMadeFromTheDeclarations() throws IOException
    {
        final List<String> lines = Files.readAllLines(DOCS, StandardCharsets.UTF_8);
        GeneratedFile.check(DOCS, lines, withTable(lines), WRITE, "the counter declarations", REWRITE);
    }

    /** The file with its table (from the header line to the last row) made from {@link CounterType#ALL}. */
    static List<String> withTable(final List<String> lines)
    {
        final int header = lines.indexOf(HEADER);
        if (header < 0)
        {
            throw new AssertionError(DOCS + " has no line " + HEADER + " for the table to go under");
        }
        int end = header + 1;
        while (end < lines.size() && lines.get(end).startsWith("|"))
        {
            end++;
        }
        final List<String> out = new ArrayList<>(lines.subList(0, header));
        out.add(HEADER);
        out.add("| ---: | --- | --- | --- | --- |");
        for (final CounterDescriptor counter : CounterType.ALL)
        {
            out.add("| " + counter.typeId() + " | `" + counter.metricName() + "` | " +
                counter.kind().name().toLowerCase(Locale.ROOT) + " | " + counter.labels() + " | " + counter.doc() +
                " |");
        }
        out.addAll(lines.subList(end, lines.size()));
        return out;
    }
}
