package io.troupe.interconnect;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RefusalLogTest
{
    private final RefusalLog log = new RefusalLog();

    @Test
    void aReasonIsLoggedOnceWhileItRepeats()
    {
        assertThat(log.shouldLog(5, "cluster id mismatch")).isTrue();
        assertThat(log.shouldLog(5, "cluster id mismatch")).isFalse();
        assertThat(log.shouldLog(5, new String("cluster id mismatch"))).as("equal, not the same instance")
            .isFalse();
    }

    @Test
    void aChangedReasonIsLoggedAgainAndSoIsTheOldOneWhenItComesBack()
    {
        assertThat(log.shouldLog(5, "bad proof")).isTrue();
        assertThat(log.shouldLog(5, "no common protocol version")).isTrue();
        assertThat(log.shouldLog(5, "no common protocol version")).isFalse();
        assertThat(log.shouldLog(5, "bad proof")).isTrue();
    }

    @Test
    void peersAreTrackedApart()
    {
        assertThat(log.shouldLog(5, "bad proof")).isTrue();
        assertThat(log.shouldLog(6, "bad proof")).isTrue();
        assertThat(log.shouldLog(0, "bad proof")).as("node id 0 is a key like any other").isTrue();
        assertThat(log.shouldLog(-1, "bad proof")).isTrue();
        assertThat(log.shouldLog(5, "bad proof")).isFalse();
        assertThat(log.shouldLog(6, "bad proof")).isFalse();
        assertThat(log.size()).isEqualTo(4);
    }

    @Test
    void aSuccessfulSessionClearsThePeerSoItsNextRefusalIsLogged()
    {
        log.shouldLog(5, "bad proof");
        log.shouldLog(6, "bad proof");

        log.clear(5);
        log.clear(42);

        assertThat(log.shouldLog(5, "bad proof")).isTrue();
        assertThat(log.shouldLog(6, "bad proof")).isFalse();
    }

    @Test
    void peersBeyondTheBoundAreNotLoggedUntilRoomIsMade()
    {
        final RefusalLog small = new RefusalLog(2);
        assertThat(small.shouldLog(1, "a")).isTrue();
        assertThat(small.shouldLog(2, "a")).isTrue();

        assertThat(small.shouldLog(3, "a")).as("full").isFalse();
        assertThat(small.shouldLog(3, "a")).isFalse();
        assertThat(small.shouldLog(1, "b")).as("a remembered peer still logs a new reason").isTrue();
        assertThat(small.size()).isEqualTo(2);

        small.clear(2);
        assertThat(small.shouldLog(3, "a")).isTrue();
        assertThat(small.shouldLog(3, "a")).isFalse();
    }

    @Test
    void theDefaultBoundHoldsManyPeers()
    {
        for (int nodeId = 1; nodeId <= RefusalLog.DEFAULT_MAX_PEERS; nodeId++)
        {
            assertThat(log.shouldLog(nodeId, "refused")).as("node %d", nodeId).isTrue();
        }
        assertThat(log.shouldLog(RefusalLog.DEFAULT_MAX_PEERS + 1, "refused")).isFalse();
        assertThat(log.size()).isEqualTo(RefusalLog.DEFAULT_MAX_PEERS);
    }

    @Test
    void aReasonIsRequiredAndTheBoundMustBePositive()
    {
        assertThatThrownBy(() -> log.shouldLog(5, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new RefusalLog(0))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxPeers");
    }
}
