package io.troupe.actor;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class AgentErrorLogTest
{
    @Test
    void anAgentFailingOnEveryCycleLogsABurstPerWindowAndSaysHowManyItLeftOut()
    {
        final List<String> lines = new ArrayList<>();
        final List<Throwable> traces = new ArrayList<>();
        final AtomicLong now = new AtomicLong(5_000);
        final AgentErrorLog errors = new AgentErrorLog((line, error) ->
        {
            lines.add(line);
            traces.add(error);
        }, "node 1: timer agent", now::get, null);

        for (int i = 0; i < 1_000; i++)
        {
            errors.onError(new IllegalStateException("broken " + i));
        }
        assertThat(lines).hasSize(AgentErrorLog.BURST).allMatch(line -> line.equals("node 1: timer agent failed"));
        assertThat(traces).hasSize(AgentErrorLog.BURST).allMatch(error -> error instanceof IllegalStateException);
        assertThat(errors.errors()).isEqualTo(1_000);

        now.addAndGet(AgentErrorLog.WINDOW_NS - 1);
        errors.onError(new IllegalStateException("still the same window"));
        assertThat(lines).hasSize(AgentErrorLog.BURST);

        now.addAndGet(1);
        errors.onError(new IllegalStateException("again"));
        assertThat(lines).hasSize(AgentErrorLog.BURST + 1);
        assertThat(lines.get(AgentErrorLog.BURST)).isEqualTo("node 1: timer agent failed (991 more failures not " +
            "logged since the last one)");
        assertThat(errors.errors()).isEqualTo(1_002);
    }

    @Test
    void everyErrorReachesTheRecorderNamedAndWholeEvenWhenTheLogIsThrottled()
    {
        final List<Throwable> recorded = new ArrayList<>();
        final AgentErrorLog errors = new AgentErrorLog((line, error) ->
        {
        }, "node 1: interconnect agent", () -> 0L, recorded::add);
        final IllegalStateException cause = new IllegalStateException("broken");
        for (int i = 0; i < AgentErrorLog.BURST + 5; i++)
        {
            errors.onError(cause);
        }
        assertThat(recorded).hasSize(AgentErrorLog.BURST + 5).allSatisfy(each ->
        {
            assertThat(each).isInstanceOf(AgentFailure.class).hasMessage("node 1: interconnect agent failed")
                .hasCause(cause);
            assertThat(each.getStackTrace()).isEmpty();
        });
    }

    @Test
    void aRecorderThatThrowsDoesNotStopTheLogOrTheCount()
    {
        final List<String> lines = new ArrayList<>();
        final AgentErrorLog errors = new AgentErrorLog((line, error) -> lines.add(line), "node 1: timer agent",
            () -> 0L, error ->
            {
                throw new IllegalStateException("recorder broken");
            });
        errors.onError(new IllegalArgumentException("x"));
        assertThat(lines).containsExactly("node 1: timer agent failed");
        assertThat(errors.errors()).isEqualTo(1);
    }
}
