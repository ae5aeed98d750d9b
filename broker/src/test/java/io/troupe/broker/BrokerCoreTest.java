package io.troupe.broker;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.troupe.broker.TestRequests.ms;
import static io.troupe.broker.TestRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

/** The broker's matching rules with scripted time. */
class BrokerCoreTest
{
    /** Records the answers of a core. */
    static final class Answers extends RecordingMeterOutput implements BrokerCore.Output
    {
        record Answer(long ref, Object event)
        {
        }

        final List<Answer> answers = new ArrayList<>();

        @Override
        public void answer(final BrokerRequest request, final Object event, final int type)
        {
            assertThat(type).isEqualTo(event instanceof Go ? Go.TYPE : Drop.TYPE);
            answers.add(new Answer(request.ref(), event));
        }
    }

    private final Answers out = new Answers();

    @Test
    void aRequestWaitsUntilACounterpartyArrivesAndBothGetGoWithRelativeAndSojournTimes()
    {
        final BrokerCore core = new BrokerCore(BrokerSpec.of(DropQueueSpec.fifo(100)), 0);
        core.ask(Side.ASK, request(1, ms(10)), false, ms(12), out);
        assertThat(out.answers).isEmpty();
        assertThat(core.length(Side.ASK)).isEqualTo(1);

        core.ask(Side.ASK_R, request(2, ms(30)), false, ms(31), out);

        assertThat(core.length(Side.ASK)).isZero();
        assertThat(out.answers).hasSize(2);
        final Go worker = (Go)out.answers.get(0).event();
        final Go client = (Go)out.answers.get(1).event();
        assertThat(worker.ref()).isEqualTo(2);
        assertThat(worker.counterparty()).isEqualTo(request(1, 0).requester());
        assertThat(worker.relativeTimeNs()).as("the client asked 20 ms earlier").isEqualTo(-ms(20));
        assertThat(worker.sojournTimeNs()).isEqualTo(ms(1));
        assertThat(client.ref()).isEqualTo(1);
        assertThat(client.counterparty()).isEqualTo(request(2, 0).requester());
        assertThat(client.relativeTimeNs()).as("the client waited 20 ms for the worker").isEqualTo(ms(20));
        assertThat(client.sojournTimeNs()).isEqualTo(ms(21));
    }

    @Test
    void aNonBlockingRequestMatchesNowOrIsDroppedNow()
    {
        final BrokerCore core = new BrokerCore(BrokerSpec.of(DropQueueSpec.fifo(100)), 0);
        core.ask(Side.ASK, request(1, ms(1)), true, ms(1), out);
        assertThat(out.answers).containsExactly(new Answers.Answer(1, new Drop(1, 0)));
        assertThat(core.length(Side.ASK)).isZero();

        core.ask(Side.ASK_R, request(2, ms(2)), false, ms(2), out);
        core.ask(Side.ASK, request(3, ms(3)), true, ms(3), out);
        assertThat(out.answers).extracting(a -> a.event().getClass().getSimpleName())
            .containsExactly("Drop", "Go", "Go");
    }

    @Test
    void cancelRemovesAQueuedRequestWithoutAnAnswerAndFindsNothingOnceMatched()
    {
        final BrokerCore core = new BrokerCore(BrokerSpec.of(DropQueueSpec.fifo(100)), 0);
        final BrokerRequest client = request(1, 0);
        core.ask(Side.ASK, client, false, 0, out);
        assertThat(core.cancel(Side.ASK, client.requester(), 1)).isTrue();
        assertThat(core.cancel(Side.ASK, client.requester(), 1)).isFalse();
        assertThat(out.answers).isEmpty();

        // cancel racing a match: the match came first, so the cancel finds nothing and the Go stands
        core.ask(Side.ASK, request(3, 0), false, 0, out);
        core.ask(Side.ASK_R, request(4, 0), false, 0, out);
        assertThat(core.cancel(Side.ASK, request(3, 0).requester(), 3)).isFalse();
        assertThat(out.answers).hasSize(2);
        assertThat(core.cancels()).isEqualTo(1);
    }

    @Test
    void theQueuePolicyDropsWhileTimePassesAndTheBrokerIsWokenForIt()
    {
        final BrokerCore core = new BrokerCore(BrokerSpec.of(TimeoutQueueSpec.of(Duration.ofMillis(100))), 0);
        core.ask(Side.ASK, request(1, 0), false, 0, out);
        final long wakeNs = core.afterBatch(0, 0, out);
        assertThat(wakeNs).isBetween(ms(100), ms(101));
        assertThat(core.afterBatch(ms(50), -1, out)).isEqualTo(wakeNs);
        assertThat(out.answers).isEmpty();

        assertThat(core.afterBatch(wakeNs + 1, -1, out)).isEqualTo(Long.MAX_VALUE);
        assertThat(out.answers).hasSize(1);
        assertThat(((Drop)out.answers.get(0).event()).sojournTimeNs()).isEqualTo(wakeNs + 1);
        assertThat(core.metrics().ask().drops()).isEqualTo(1);
    }

    @Test
    void reconfigurationKeepsQueuedRequestsInOrderAndAppliesTheNewPolicyFromThenOn()
    {
        final BrokerCore core = new BrokerCore(BrokerSpec.of(DropQueueSpec.fifo(100)), 0);
        for (int i = 1; i <= 5; i++)
        {
            core.ask(Side.ASK, request(i, ms(i)), false, ms(i), out);
        }
        core.reconfigure(new BrokerSpec(TimeoutQueueSpec.of(Duration.ofMillis(100)), DropQueueSpec.fifo(100),
            List.of()), ms(10));
        assertThat(core.length(Side.ASK)).isEqualTo(5);
        assertThat(out.answers).isEmpty();

        core.afterBatch(ms(102) + 1, -1, out); // requests 1 and 2 are now older than 100 ms
        assertThat(out.answers).extracting(Answers.Answer::ref).containsExactly(1L, 2L);
        core.ask(Side.ASK_R, request(9, ms(103)), false, ms(103), out);
        assertThat(out.answers.get(2).ref()).as("the oldest left is matched").isEqualTo(9L);
        assertThat(out.answers.get(3).ref()).isEqualTo(3L);
    }

    @Test
    void metersSeeTheQueuesAndTheMessageQueueDelayAndRaiseAlarms()
    {
        final BrokerCore core = new BrokerCore(new BrokerSpec(DropQueueSpec.fifo(100), DropQueueSpec.fifo(100),
            List.of(OverloadMeterSpec.of(Duration.ofMillis(10), Duration.ofMillis(100)))), 0);
        core.ask(Side.ASK, request(1, 0), false, 0, out);
        core.afterBatch(0, ms(20), out);
        assertThat(core.metrics().ask().length()).isEqualTo(1);
        assertThat(core.metrics().ask().headSojournNs(ms(5))).isEqualTo(ms(5));
        assertThat(core.metrics().messageQueueSojournNs()).isEqualTo(ms(20));
        core.afterBatch(ms(100), ms(20), out);
        assertThat(out.alarms).containsExactly(new RecordingMeterOutput.Alarm("overload", true, ms(100)));
    }
}
