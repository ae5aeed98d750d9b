package io.troupe.broker;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one-line text of a broker's configuration: what {@code troupe brokers} shows and {@code broker set} reads. */
class BrokerSpecTextTest
{
    @Test
    void everyPolicyReadsWithDefaultsForWhatIsLeftOut()
    {
        assertThat(BrokerSpecText.parseQueue("drop")).isEqualTo(DropQueueSpec.unbounded());
        assertThat(BrokerSpecText.parseQueue("drop(max=100, drop=head, order=lifo)"))
            .isEqualTo(new DropQueueSpec(100, DropEnd.HEAD, ServeOrder.LIFO));
        assertThat(BrokerSpecText.parseQueue("timeout(timeout=250us)"))
            .isEqualTo(TimeoutQueueSpec.of(Duration.ofNanos(250_000)));
        assertThat(BrokerSpecText.parseQueue("codel(target=5ms,interval=100ms)"))
            .isEqualTo(CodelQueueSpec.of(Duration.ofMillis(5), Duration.ofMillis(100)));
        assertThat(BrokerSpecText.parseQueue("codel(sojourn-limit=none)"))
            .isEqualTo(CodelQueueSpec.defaults().withSojournLimit(CodelQueueSpec.NO_SOJOURN_LIMIT));
        assertThat(BrokerSpecText.parseQueue("fair(key=request-key,inner=timeout(timeout=2s,max=10))"))
            .isEqualTo(new FairQueueSpec(new TimeoutQueueSpec(Duration.ofSeconds(2), 0, 10, DropEnd.TAIL,
                ServeOrder.FIFO), FairKey.REQUEST_KEY));
        assertThat(BrokerSpecText.parseQueue("fair")).isEqualTo(new FairQueueSpec(DropQueueSpec.unbounded(),
            FairKey.CLIENT_NODE));
    }

    @Test
    void formattingLeavesDefaultsOutAndReadsBackToTheSameSpec()
    {
        final List<QueueSpec> specs = List.of(DropQueueSpec.fifo(7), DropQueueSpec.lifo(3), DropQueueSpec.unbounded(),
            TimeoutQueueSpec.of(Duration.ofMillis(1500)), CodelQueueSpec.defaults(),
            CodelQueueSpec.of(Duration.ofMillis(5), Duration.ofMillis(100)).withSojournLimit(Duration.ofSeconds(1)),
            new CodelQueueSpec(Duration.ofMillis(5), Duration.ofMillis(50), Duration.ofMillis(10), 2, 99,
                DropEnd.HEAD, ServeOrder.LIFO),
            new FairQueueSpec(CodelQueueSpec.defaults(), FairKey.CLIENT_ACTOR));
        for (final QueueSpec spec : specs)
        {
            assertThat(BrokerSpecText.parseQueue(BrokerSpecText.formatQueue(spec))).as(spec.toString()).isEqualTo(spec);
        }
        assertThat(BrokerSpecText.formatQueue(CodelQueueSpec.of(Duration.ofMillis(5), Duration.ofMillis(100))))
            .isEqualTo("codel(target=5ms,interval=100ms)");
        assertThat(BrokerSpecText.formatQueue(TimeoutQueueSpec.of(Duration.ofMillis(1500))))
            .isEqualTo("timeout(timeout=1500ms)");
        assertThat(BrokerSpecText.format(new BrokerSpec(DropQueueSpec.fifo(10), CodelQueueSpec.defaults(),
            List.of(OverloadMeterSpec.of(Duration.ofMillis(100), Duration.ofSeconds(1))))))
            .isEqualTo("ask=drop(max=10) askR=codel() meters=[overload(target=100ms,interval=1s,alarm=overload)]");
    }

    @Test
    void aKeyOrPolicyOfTheApplicationsOwnIsShownButCannotBeSet()
    {
        final String shown = BrokerSpecText.formatQueue(new FairQueueSpec(DropQueueSpec.unbounded(),
            FairKey.of(request -> 1)));
        assertThat(shown).isEqualTo("fair(key=custom,inner=drop())");
        assertThatThrownBy(() -> BrokerSpecText.parseQueue(shown)).hasMessageContaining("fair.key is client-node");
    }

    @Test
    void badTextIsRefusedNamingThePolicyAndTheSetting()
    {
        assertThatThrownBy(() -> BrokerSpecText.parseQueue("red(max=1)")).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("unknown queue policy 'red': drop, timeout, codel or fair");
        assertThatThrownBy(() -> BrokerSpecText.parseQueue("drop(limit=5)"))
            .hasMessage("drop has no setting 'limit': it takes max, drop, order");
        assertThatThrownBy(() -> BrokerSpecText.parseQueue("drop(max=lots)"))
            .hasMessage("drop.max is a count, not 'lots'");
        assertThatThrownBy(() -> BrokerSpecText.parseQueue("drop(max=-1)")).hasMessageContaining("DropQueueSpec.max");
        assertThatThrownBy(() -> BrokerSpecText.parseQueue("timeout(max=5)"))
            .hasMessage("timeout needs timeout (e.g. timeout=500ms)");
        assertThatThrownBy(() -> BrokerSpecText.parseQueue("codel(target=5)"))
            .hasMessage("codel.target needs a unit (ns, us, ms, s, m, h): '5'");
        assertThatThrownBy(() -> BrokerSpecText.parseQueue("codel(target=5ms,target=6ms)"))
            .hasMessage("codel: target is given twice");
        assertThatThrownBy(() -> BrokerSpecText.parseQueue("drop(order=random)"))
            .hasMessage("drop.order is fifo or lifo, not 'random'");
        assertThatThrownBy(() -> BrokerSpecText.parseQueue("drop(max=1")).hasMessage("drop(...: a ')' is missing");
        assertThatThrownBy(() -> BrokerSpecText.parseQueue("drop(max=1)x"))
            .hasMessage("unexpected 'x' after drop(max=1)");
        assertThatThrownBy(() -> BrokerSpecText.parseQueue("drop(max)"))
            .hasMessage("drop: 'max' needs a value (max=...)");
        assertThatThrownBy(() -> BrokerSpecText.parseQueue("codel(target=" + "9".repeat(600) + "ms)"))
            .hasMessageContaining("at most 512 characters");
        assertThatThrownBy(() -> BrokerSpecText.parseQueue("codel(target=99999999999999999h)"))
            .hasMessageContaining("codel.target");
    }

    @Test
    void durationsShowInTheLargestWholeUnit()
    {
        assertThat(BrokerSpecText.duration(Duration.ofMillis(5))).isEqualTo("5ms");
        assertThat(BrokerSpecText.duration(Duration.ofSeconds(120))).isEqualTo("2m");
        assertThat(BrokerSpecText.duration(Duration.ofNanos(1500))).isEqualTo("1500ns");
        assertThat(BrokerSpecText.duration(Duration.ZERO)).isEqualTo("0ns");
    }
}
