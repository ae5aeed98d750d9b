package io.troupe.membership.internal;

import io.troupe.membership.table.Member;
import io.troupe.membership.table.MemberStatus;
import io.troupe.membership.internal.sbe.ReplyCode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** The member table, command by command, on the log's clock. */
class MemberTableTest
{
    private static final long LEASE = 5_000;
    private final MemberTable table = new MemberTable(LEASE, 100, 8);

    @Test
    void aJoinerWithItsOwnIdIsJoiningThenUpEachChangeAtTheNextEpoch()
    {
        final MemberTable.Outcome joined = table.join(3, 11, "10.0.0.3", 7003, 1_000);
        assertThat(joined.code()).isEqualTo(ReplyCode.OK);
        assertThat(joined.nodeId()).isEqualTo(3);
        assertThat(joined.changes()).containsExactly(new Member(3, 11, "10.0.0.3", 7003, MemberStatus.JOINING, 1));
        assertThat(table.epoch()).isEqualTo(1);

        final MemberTable.Outcome up = table.ready(3, 11);
        assertThat(up.changes()).containsExactly(new Member(3, 11, "10.0.0.3", 7003, MemberStatus.UP, 2));
        assertThat(table.ready(3, 11).changes()).isEmpty();
        assertThat(table.epoch()).isEqualTo(2);
        assertThat(table.members()).extracting(Member::status).containsExactly(MemberStatus.UP);
    }

    @Test
    void aJoinerWithoutAnIdIsAssignedTheNextFreeOneAndARetryGetsTheSameId()
    {
        table.join(100, 5, "h0", 7000, 0);
        final MemberTable.Outcome first = table.join(0, 7, "h1", 7001, 0);
        final MemberTable.Outcome retry = table.join(0, 7, "h1", 7001, 10);
        final MemberTable.Outcome second = table.join(0, 9, "h2", 7002, 20);
        assertThat(first.nodeId()).isEqualTo(101);
        assertThat(retry.nodeId()).isEqualTo(101);
        assertThat(retry.changes()).isEmpty();
        assertThat(second.nodeId()).isEqualTo(102);
        assertThat(table.epoch()).isEqualTo(3);
    }

    @Test
    void anAssignedIdIsNotHandedOutAgainAfterItsMemberLeft()
    {
        final int id = table.join(0, 7, "h1", 7001, 0).nodeId();
        table.leave(id, 7, true);
        assertThat(table.join(0, 8, "h1", 7001, 0).nodeId()).isNotEqualTo(id);
    }

    @Test
    void aRepeatedJoinRenewsTheLeaseForTheNodeCountsItFromItsLastJoinSent()
    {
        table.join(3, 11, "h", 7003, 0);
        table.join(0, 12, "h", 7100, 0);
        assertThat(table.join(3, 11, "h", 7003, 4_000).changes()).isEmpty();
        assertThat(table.join(0, 12, "h", 7100, 4_000).changes()).isEmpty();
        assertThat(table.lapse(LEASE + 1)).isEmpty();
        assertThat(table.lastRenewedMs(3)).isEqualTo(4_000);
        assertThat(table.lastRenewedMs(100)).isEqualTo(4_000);
    }

    @Test
    void anIdTakenByALiveMemberAtAnotherAddressIsRefusedSayingWhoHasIt()
    {
        table.join(3, 11, "10.0.0.3", 7003, 0);
        final MemberTable.Outcome clash = table.join(3, 12, "10.0.0.4", 7003, 0);
        assertThat(clash.code()).isEqualTo(ReplyCode.ID_TAKEN);
        assertThat(clash.detail()).contains("node id 3 is taken by a live member at 10.0.0.3:7003");
        assertThat(clash.changes()).isEmpty();
        assertThat(table.epoch()).isEqualTo(1);
    }

    @Test
    void aRestartAtTheSameAddressDownsTheOldIncarnationThenJoinsTheNew()
    {
        table.join(3, 11, "h", 7003, 0);
        table.ready(3, 11);
        final MemberTable.Outcome restarted = table.join(3, 12, "h", 7003, 100);
        assertThat(restarted.code()).isEqualTo(ReplyCode.OK);
        assertThat(restarted.changes()).containsExactly(
            new Member(3, 11, "h", 7003, MemberStatus.DOWN, 3),
            new Member(3, 12, "h", 7003, MemberStatus.JOINING, 4));
        assertThat(table.join(3, 11, "h", 7003, 200).code()).isEqualTo(ReplyCode.INCARNATION_ENDED);
    }

    @Test
    void anEndedIncarnationNeverComesBackAndLearnsItWhenItRenews()
    {
        table.join(3, 11, "h", 7003, 0);
        assertThat(table.down(3, 0).changes()).extracting(Member::status).containsExactly(MemberStatus.DOWN);
        assertThat(table.renew(3, 11, 10).code()).isEqualTo(ReplyCode.INCARNATION_ENDED);
        assertThat(table.ready(3, 11).code()).isEqualTo(ReplyCode.INCARNATION_ENDED);
        final MemberTable.Outcome again = table.join(3, 11, "h", 7003, 20);
        assertThat(again.code()).isEqualTo(ReplyCode.INCARNATION_ENDED);
        assertThat(again.detail()).contains("not greater than its last, 11");
        assertThat(table.join(3, 12, "h", 7003, 30).code()).isEqualTo(ReplyCode.OK);
    }

    @Test
    void aLeaseLapsesOnlyAfterItsLengthWithoutARenewalAndALeavingMemberLeavesRatherThanGoesDown()
    {
        table.join(1, 1, "a", 7001, 0);
        table.join(2, 2, "b", 7002, 0);
        table.join(3, 3, "c", 7003, 0);
        table.leave(3, 3, false);
        table.renew(1, 1, 4_000);
        assertThat(table.lapse(LEASE)).isEmpty();
        final List<Member> lapsed = table.lapse(LEASE + 1);
        assertThat(lapsed).extracting(Member::nodeId, Member::status).containsExactly(
            tuple(2, MemberStatus.DOWN),
            tuple(3, MemberStatus.LEFT));
        assertThat(lapsed).extracting(Member::sinceEpoch).containsExactly(5L, 6L);
        assertThat(table.members()).extracting(Member::nodeId).containsExactly(1);
        assertThat(table.lapse(4_000 + LEASE + 1)).extracting(Member::nodeId).containsExactly(1);
    }

    @Test
    void aNewLeaderRestartsEveryLeaseSoTheTimeWithoutOneDownsNobody()
    {
        table.join(1, 1, "a", 7001, 0);
        table.onNewLeader(20_000);
        assertThat(table.lapse(20_000 + LEASE)).isEmpty();
        assertThat(table.lapse(20_000 + LEASE + 1)).hasSize(1);
    }

    @Test
    void aGracefulLeaveIsLeavingThenLeftAndDownOfAnUnknownOrOtherIncarnationChangesNothing()
    {
        table.join(4, 40, "d", 7004, 0);
        assertThat(table.leave(4, 40, false).changes()).extracting(Member::status)
            .containsExactly(MemberStatus.LEAVING);
        assertThat(table.leave(4, 40, false).changes()).isEmpty();
        assertThat(table.down(4, 41).code()).isEqualTo(ReplyCode.UNKNOWN_MEMBER);
        assertThat(table.leave(4, 40, true).changes()).extracting(Member::status).containsExactly(MemberStatus.LEFT);
        assertThat(table.down(9, 0).code()).isEqualTo(ReplyCode.UNKNOWN_MEMBER);
        assertThat(table.members()).isEmpty();
    }

    @Test
    void badFieldsAreRefusedSayingWhichAndTheTableHasAMostMembers()
    {
        assertThat(table.join(-1, 1, "h", 1, 0).detail()).contains("node id -1 out of range");
        assertThat(table.join(MemberTable.MAX_NODE_ID + 1, 1, "h", 1, 0).code()).isEqualTo(ReplyCode.BAD_REQUEST);
        assertThat(table.join(1, 0, "h", 1, 0).detail()).contains("incarnation 0 is not positive");
        assertThat(table.join(1, 1, "h", 70_000, 0).detail()).contains("port 70000 out of range");
        assertThat(table.join(1, 1, "", 1, 0).detail()).contains("host must have");
        assertThat(table.join(1, 1, "x".repeat(256), 1, 0).code()).isEqualTo(ReplyCode.BAD_REQUEST);
        assertThat(table.epoch()).isZero();
        for (int id = 1; id <= 8; id++)
        {
            assertThat(table.join(id, 1, "h" + id, 7000, 0).code()).isEqualTo(ReplyCode.OK);
        }
        final MemberTable.Outcome full = table.join(9, 1, "h9", 7000, 0);
        assertThat(full.code()).isEqualTo(ReplyCode.FULL);
        assertThat(full.detail()).contains("most members, 8");
    }
}
