package io.troupe.membership.internal;

import io.troupe.membership.table.Member;
import io.troupe.membership.table.MemberStatus;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A node's copy of the member table, fed notices in and out of order. */
class MemberViewTest
{
    private final MemberView view = new MemberView();
    private final List<Member> changes = new ArrayList<>();

    private static Member member(final int id, final long incarnation, final MemberStatus status, final long epoch)
    {
        return new Member(id, incarnation, "h" + id, 7000 + id, status, epoch);
    }

    private void table(final long epoch, final Member... members)
    {
        for (final Member member : members)
        {
            view.tableMember(epoch, member);
        }
    }

    @Test
    void aChangeBeforeTheFirstTableIsAGapAndTheTableReportsEveryMember()
    {
        assertThat(view.changed(member(1, 1, MemberStatus.UP, 1), changes)).isEqualTo(MemberView.Applied.GAP);
        table(2, member(1, 1, MemberStatus.UP, 2), member(2, 1, MemberStatus.JOINING, 1));
        assertThat(view.tableEnd(2, 2, changes)).isEqualTo(MemberView.Applied.CHANGED);
        assertThat(changes).extracting(Member::nodeId).containsExactly(1, 2);
        assertThat(view.epoch()).isEqualTo(2);
    }

    @Test
    void changesApplyInEpochOrderOnlyAGapAsksForTheTableAndARepeatIsNothing()
    {
        table(0);
        view.tableEnd(0, 0, changes);
        assertThat(view.changed(member(1, 1, MemberStatus.JOINING, 1), changes))
            .isEqualTo(MemberView.Applied.CHANGED);
        assertThat(view.changed(member(1, 1, MemberStatus.JOINING, 1), changes))
            .isEqualTo(MemberView.Applied.NOTHING);
        assertThat(view.changed(member(1, 1, MemberStatus.DOWN, 3), changes)).isEqualTo(MemberView.Applied.GAP);
        assertThat(view.member(1).status()).isEqualTo(MemberStatus.JOINING);
        assertThat(view.changed(member(1, 1, MemberStatus.UP, 2), changes)).isEqualTo(MemberView.Applied.CHANGED);
        assertThat(view.changed(member(1, 1, MemberStatus.DOWN, 3), changes)).isEqualTo(MemberView.Applied.CHANGED);
        assertThat(view.members()).isEmpty();
        assertThat(changes).extracting(Member::status)
            .containsExactly(MemberStatus.JOINING, MemberStatus.UP, MemberStatus.DOWN);
    }

    @Test
    void aNewerTableReportsWhatChangedAndWhoIsGoneAsLeftIfLeavingElseDown()
    {
        table(3, member(1, 1, MemberStatus.UP, 2), member(2, 1, MemberStatus.LEAVING, 3),
            member(3, 1, MemberStatus.UP, 1));
        view.tableEnd(3, 3, changes);
        changes.clear();
        table(7, member(1, 2, MemberStatus.JOINING, 7));
        assertThat(view.tableEnd(7, 1, changes)).isEqualTo(MemberView.Applied.CHANGED);
        assertThat(changes).containsExactly(
            member(1, 1, MemberStatus.DOWN, 7),
            member(1, 2, MemberStatus.JOINING, 7),
            member(2, 1, MemberStatus.LEFT, 7),
            member(3, 1, MemberStatus.DOWN, 7));
    }

    @Test
    void anOlderOrIncompleteTableChangesNothing()
    {
        table(5, member(1, 1, MemberStatus.UP, 5));
        view.tableEnd(5, 1, changes);
        changes.clear();
        table(4);
        assertThat(view.tableEnd(4, 0, changes)).isEqualTo(MemberView.Applied.NOTHING);
        table(6, member(2, 1, MemberStatus.UP, 6));
        assertThat(view.tableEnd(6, 2, changes)).isEqualTo(MemberView.Applied.GAP);
        assertThat(changes).isEmpty();
        assertThat(view.members()).extracting(Member::nodeId).containsExactly(1);
    }
}
