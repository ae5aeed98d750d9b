package io.troupe.membership.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The member's side of its lease, on a clock the test moves. */
class LeaseKeeperTest
{
    private static final long MS = 1_000_000L;
    private final LeaseKeeper lease = new LeaseKeeper(5_000 * MS, 1_000 * MS, 1_000 * MS);

    @Test
    void nothingIsDueOrLapsedBeforeTheJoinWasAccepted()
    {
        assertThat(lease.renewDue(100_000 * MS)).isFalse();
        assertThat(lease.lapsed(100_000 * MS)).isFalse();
    }

    @Test
    void aRenewalIsDueAnIntervalAfterTheLastWasSent()
    {
        lease.granted(0);
        assertThat(lease.renewDue(999 * MS)).isFalse();
        assertThat(lease.renewDue(1_000 * MS)).isTrue();
        lease.sent(1, 1_000 * MS);
        assertThat(lease.renewDue(1_500 * MS)).isFalse();
        assertThat(lease.renewDue(2_000 * MS)).isTrue();
    }

    @Test
    void theMemberStopsALeaseLessTheMarginAfterSendingTheNewestAcceptedRenewal()
    {
        lease.granted(0);
        lease.sent(1, 1_000 * MS);
        lease.sent(2, 2_000 * MS);
        lease.accepted(1); // renewal 2 is never answered: only renewal 1's send time counts
        assertThat(lease.lapsed(5_000 * MS)).isFalse();
        assertThat(lease.lapsed(5_000 * MS + 1)).isTrue();
        assertThat(lease.remainingNs(4_000 * MS)).isEqualTo(1_000 * MS);
    }

    @Test
    void anOldReplyNeverMovesTheLeaseBackAndAnUnknownOneMovesNothing()
    {
        lease.granted(0);
        lease.sent(1, 1_000 * MS);
        lease.sent(2, 2_000 * MS);
        lease.accepted(2);
        lease.accepted(1);
        lease.accepted(99);
        assertThat(lease.lapsed(6_000 * MS)).isFalse();
        assertThat(lease.lapsed(6_000 * MS + 1)).isTrue();
    }

    @Test
    void aRenewalThatCouldNotBeSentIsTriedAgainSoon()
    {
        lease.granted(0);
        lease.notSent(1_000 * MS, 100 * MS);
        assertThat(lease.renewDue(1_099 * MS)).isFalse();
        assertThat(lease.renewDue(1_100 * MS)).isTrue();
    }

    @Test
    void theIntervalAndMarginMustFitInsideTheLease()
    {
        assertThatThrownBy(() -> new LeaseKeeper(2_000 * MS, 1_000 * MS, 1_000 * MS))
            .hasMessageContaining("must be positive and add up to less than the lease (2000 ms)");
    }
}
