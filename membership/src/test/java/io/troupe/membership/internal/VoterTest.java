package io.troupe.membership.internal;

import io.aeron.exceptions.AeronException;
import io.troupe.membership.table.Member;
import io.troupe.membership.table.MemberStatus;
import io.troupe.membership.internal.MembershipHarness.Client;
import io.troupe.membership.internal.VoterCounts.Figure;
import io.troupe.membership.internal.sbe.ReplyCode;
import io.troupe.testing.Await;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** One voter of the membership service in this JVM, on real Aeron Cluster and Archive, and raw clients. */
@Timeout(120)
class VoterTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration LEASE = Duration.ofSeconds(30);

    @TempDir
    Path dir;
    private MembershipHarness harness;

    @AfterEach
    void tearDown()
    {
        if (harness != null)
        {
            harness.close();
        }
    }

    private static <T> void awaitHeard(final Client client, final T expected)
    {
        Await.until(() ->
        {
            client.poll();
            return client.heard.contains(expected);
        }, WAIT, () -> "to hear " + expected + "; heard " + client.heard);
    }

    private static Client.Reply reply(final long correlationId, final long epoch, final long leaseMs, final int id)
    {
        return new Client.Reply(correlationId, epoch, leaseMs, id, ReplyCode.OK, "");
    }

    @Test
    void aJoinerThatProvesTheSecretIsRecordedJoiningThenUpAndItsRenewalsAreAnswered()
    {
        harness = new MembershipHarness(dir, 1);
        harness.start(0, LEASE);
        final Client node = harness.connect(MembershipHarness.SECRET, MembershipHarness.CLUSTER, 5, 77, WAIT);
        awaitHeard(node, new Client.TableEnd(0, 0, 0)); // a new session gets the table: empty

        node.send(node.requests.join(1, 5, 77, "127.0.0.1", 7005));
        awaitHeard(node, reply(1, 1, LEASE.toMillis(), 5));
        assertThat(node.heard).contains(new Member(5, 77, "127.0.0.1", 7005, MemberStatus.JOINING, 1));

        node.send(node.requests.ready(2, 5, 77));
        awaitHeard(node, reply(2, 2, 0, 5));
        assertThat(node.heard).contains(new Member(5, 77, "127.0.0.1", 7005, MemberStatus.UP, 2));

        node.send(node.requests.renew(3, 5, 77));
        awaitHeard(node, reply(3, 2, LEASE.toMillis(), 5));
        final VoterCounts counts = harness.counts(0);
        assertThat(counts.get(Figure.JOINS)).isEqualTo(1);
        assertThat(counts.get(Figure.RENEWALS)).isEqualTo(1);
        assertThat(counts.get(Figure.SESSIONS_ADMITTED)).isPositive();
    }

    @Test
    void requestsInAnAdmittedSessionWithoutItsTagOrReplayedChangeNothingAndAreCounted()
    {
        // what anyone who can put a datagram on the path could add to a session Aeron Cluster admitted: the
        // session's stream carries the bytes, only the trailer tells the service whose they are
        harness = new MembershipHarness(dir, 1);
        harness.start(0, LEASE);
        final Client node = harness.connect(MembershipHarness.SECRET, MembershipHarness.CLUSTER, 5, 77, WAIT);
        final Client other = harness.connect(MembershipHarness.SECRET, MembershipHarness.CLUSTER, 6, 78, WAIT);
        awaitHeard(node, new Client.TableEnd(0, 0, 0));
        node.send(node.requests.join(1, 5, 77, "127.0.0.1", 7005));
        awaitHeard(node, reply(1, 1, LEASE.toMillis(), 5));
        final VoterCounts counts = harness.counts(0);

        final UnsafeBuffer message = new UnsafeBuffer(new byte[SessionGuard.MAX_MESSAGE]);
        int length = node.requests.down(2, 5, 77, 9); // an operator's down of node 5, unsealed
        message.putBytes(0, node.requests.buffer(), 0, length);
        node.sendRaw(message, length);
        length = other.guard.seal(message, length); // sealed, but with the other session's keys
        node.sendRaw(message, length);
        length = node.requests.renew(3, 5, 77);
        message.putBytes(0, node.requests.buffer(), 0, length);
        length = node.guard.seal(message, length); // a genuine renewal, then the same bytes again
        node.sendRaw(message, length);
        node.sendRaw(message, length);

        awaitHeard(node, reply(3, 1, LEASE.toMillis(), 5));
        Await.until(() -> counts.get(Figure.REQUESTS_REJECTED) == 3, WAIT,
            () -> "3 requests rejected; counted " + counts.get(Figure.REQUESTS_REJECTED));
        node.send(node.requests.sync(4)); // the table after them all: node 5 still joining, at epoch 1
        awaitHeard(node, new Client.TableEnd(1, 1, 0));
        assertThat(node.heard).contains(new Client.TableMember(1,
            new Member(5, 77, "127.0.0.1", 7005, MemberStatus.JOINING, 1)));
        assertThat(counts.get(Figure.RENEWALS)).isEqualTo(1);
        assertThat(counts.get(Figure.OTHER_DOWNS)).isZero();
        assertThat(counts.get(Figure.MALFORMED)).isZero();
        assertThat(node.noticesRejected.get()).isZero();
    }

    @Test
    void aClientWithoutTheSecretOrOfAnotherClusterCannotConnectAndIsCounted()
    {
        harness = new MembershipHarness(dir, 1);
        harness.start(0, LEASE);
        final byte[] wrong = "not-the-secret-of-this-cluster-42".getBytes(StandardCharsets.US_ASCII);
        assertThatThrownBy(() -> harness.connect(wrong, MembershipHarness.CLUSTER, 6, 1, Duration.ofSeconds(5)))
            .isInstanceOf(AeronException.class);
        assertThatThrownBy(() -> harness.connect(MembershipHarness.SECRET, "other", 6, 1, Duration.ofSeconds(5)))
            .isInstanceOf(AeronException.class);
        Await.until(() -> harness.counts(0).get(Figure.SESSIONS_REJECTED) >= 2, WAIT, "both rejections counted");
        assertThat(harness.counts(0).get(Figure.SESSIONS_ADMITTED)).isZero();
    }

    @Test
    void aMemberThatStopsRenewingIsDownedOnceAndEveryoneHearsItAtTheSameEpoch()
    {
        harness = new MembershipHarness(dir, 1);
        final Duration lease = Duration.ofSeconds(1);
        harness.start(0, lease);
        final Client a = harness.connect(MembershipHarness.SECRET, MembershipHarness.CLUSTER, 5, 1, WAIT);
        final Client b = harness.connect(MembershipHarness.SECRET, MembershipHarness.CLUSTER, 6, 1, WAIT);
        a.send(a.requests.join(1, 5, 1, "127.0.0.1", 7005));
        awaitHeard(a, reply(1, 1, lease.toMillis(), 5));
        b.send(b.requests.join(1, 6, 1, "127.0.0.1", 7006));
        awaitHeard(b, reply(1, 2, lease.toMillis(), 6));

        final Member downed = new Member(6, 1, "127.0.0.1", 7006, MemberStatus.DOWN, 3);
        long correlation = 2;
        final long deadline = System.nanoTime() + WAIT.toNanos();
        while (!a.heard.contains(downed) && System.nanoTime() < deadline)
        {
            a.send(a.requests.renew(correlation++, 5, 1)); // a renews, b does not
            Await.holdsFor(Duration.ofMillis(200), () -> a.poll() >= 0, "a polls");
        }
        assertThat(a.heard).contains(downed);
        assertThat(a.heard).doesNotContain(new Member(5, 1, "127.0.0.1", 7005, MemberStatus.DOWN, 3),
            new Member(5, 1, "127.0.0.1", 7005, MemberStatus.DOWN, 4));
        b.send(b.requests.renew(2, 6, 1));
        awaitHeard(b, new Client.Reply(2, 3, lease.toMillis(), 6, ReplyCode.INCARNATION_ENDED,
            "incarnation 1 of node 6 has ended (left or downed): restart the node to join again"));
        assertThat(harness.counts(0).get(Figure.LEASE_DOWNS)).isEqualTo(1);
    }

    @Test
    void aVoterRestartedOnItsDirectoryHasTheTableItHadFromItsLog()
    {
        harness = new MembershipHarness(dir, 1);
        harness.start(0, LEASE);
        final Client node = harness.connect(MembershipHarness.SECRET, MembershipHarness.CLUSTER, 5, 9, WAIT);
        node.send(node.requests.join(1, 5, 9, "127.0.0.1", 7005));
        awaitHeard(node, reply(1, 1, LEASE.toMillis(), 5));
        node.close();
        harness.stop(0);

        harness.start(0, LEASE);
        final Client again = harness.connect(MembershipHarness.SECRET, MembershipHarness.CLUSTER, 7, 1, WAIT);
        awaitHeard(again, new Client.TableEnd(1, 1, 0));
        assertThat(again.heard).contains(new Client.TableMember(1,
            new Member(5, 9, "127.0.0.1", 7005, MemberStatus.JOINING, 1)));
    }

    @Test
    void aFollowerRestartedFromTheSnapshotTakesAndRefusesWhatTheOthersDo()
    {
        // each voter decides alone whether a request carries its session's tag and is new: a follower restarted
        // from a snapshot without the sessions' sequences would take a replay the others refuse
        harness = new MembershipHarness(dir, 3);
        for (int i = 0; i < 3; i++)
        {
            harness.start(i, LEASE);
        }
        final Client node = harness.connect(MembershipHarness.SECRET, MembershipHarness.CLUSTER, 5, 9, WAIT);
        node.send(node.requests.join(1, 5, 9, "127.0.0.1", 7005));
        awaitHeard(node, reply(1, 1, LEASE.toMillis(), 5));
        final UnsafeBuffer renewal = new UnsafeBuffer(new byte[SessionGuard.MAX_MESSAGE]);
        int length = node.requests.renew(2, 5, 9);
        renewal.putBytes(0, node.requests.buffer(), 0, length);
        length = node.guard.seal(renewal, length);
        node.sendRaw(renewal, length);
        awaitHeard(node, reply(2, 1, LEASE.toMillis(), 5));

        final int leader = leader();
        final int follower = (leader + 1) % 3;
        harness.snapshot(leader, follower); // the leader's toggle: every voter takes one at the same log position
        harness.stop(follower);
        harness.start(follower, LEASE); // from its snapshot, and the log after it from the leader

        node.sendRaw(renewal, length);
        node.send(node.requests.renew(3, 5, 9));
        awaitHeard(node, reply(3, 1, LEASE.toMillis(), 5));
        for (int i = 0; i < 3; i++)
        {
            final VoterCounts counts = harness.counts(i);
            final int index = i;
            Await.until(() -> counts.get(Figure.REQUESTS_REJECTED) == 1 && counts.get(Figure.RENEWALS) == 2, WAIT,
                () -> "voter " + index + " took renewals 2 and 3 and refused the replay; it counted " +
                    counts.get(Figure.RENEWALS) + " renewals, " + counts.get(Figure.REQUESTS_REJECTED) + " rejected");
        }
    }

    private int leader()
    {
        final int[] found = {-1};
        Await.until(() ->
        {
            for (int i = 0; i < 3; i++)
            {
                if (harness.leaderIndex(i))
                {
                    found[0] = i;
                    return true;
                }
            }
            return false;
        }, WAIT, "a leader");
        return found[0];
    }
}
