package io.troupe.membership;

import io.aeron.cluster.service.Cluster;
import io.troupe.interconnect.LoopbackPorts;
import io.troupe.membership.table.Member;
import io.troupe.membership.table.MemberStatus;
import io.troupe.membership.table.VoterAddress;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Node-sized memberships in this JVM: a voter that is node 1, and nodes that join it with only its address. */
@Timeout(120)
class MembershipTest
{
    private static final byte[] SECRET = "membership-facade-test-secret-012".getBytes(StandardCharsets.US_ASCII);
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;
    private final List<Membership> started = new ArrayList<>();
    private final ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();

    @AfterEach
    void tearDown()
    {
        for (int i = started.size() - 1; i >= 0; i--)
        {
            started.get(i).close();
        }
    }

    /** What one node's membership told it. */
    private static final class Heard implements MembershipEvents
    {
        final ConcurrentLinkedQueue<Member> changes = new ConcurrentLinkedQueue<>();
        volatile String leaseLost;

        @Override
        public void onChange(final Member member)
        {
            changes.add(member);
        }

        @Override
        public void onLeaseLost(final String why)
        {
            leaseLost = why;
        }

        boolean heard(final int nodeId, final MemberStatus status)
        {
            return changes.stream().anyMatch(m -> m.nodeId() == nodeId && m.status() == status);
        }
    }

    private Membership start(final MembershipConfig config, final int nodeId, final int port, final Heard heard,
        final String secretText)
    {
        final byte[] secret = secretText == null ? SECRET : secretText.getBytes(StandardCharsets.US_ASCII);
        final String name = "n" + nodeId + "-" + port;
        final Membership membership = Membership.start(config, new Membership.Identity(nodeId, 1, "127.0.0.1", port,
            "facade-test", secret, dir.resolve(name).toFile(), dir.resolve("aeron-" + name).toString()), heard,
            errors::add);
        started.add(membership);
        return membership;
    }

    @Test
    void nodeOneRunsTheVoterAndANodeWithOnlyTheSeedsJoinsWithAnAssignedIdAndGoesUp() throws Exception
    {
        final MembershipConfig config = new MembershipConfig().voter(new VoterAddress(1, "127.0.0.1", freeBase()));
        final Heard heardByOne = new Heard();
        final Membership one = start(config, 1, 7001, heardByOne, null);
        assertThat(one.awaitJoined(WAIT)).isEqualTo(1);
        assertThat(one.isVoter()).isTrue();
        Await.until(() -> one.role() == Cluster.Role.LEADER, WAIT, "node 1's voter leads");
        one.ready().get(30, TimeUnit.SECONDS);

        final Heard heardByJoiner = new Heard();
        final Membership joiner = start(config, 0, 7100, heardByJoiner, null);
        final int id = joiner.awaitJoined(WAIT);
        assertThat(id).isEqualTo(config.firstAssignedId());
        assertThat(joiner.isVoter()).isFalse();
        joiner.ready().get(30, TimeUnit.SECONDS);
        Await.until(() -> heardByOne.heard(id, MemberStatus.UP) && heardByJoiner.heard(1, MemberStatus.UP), WAIT,
            () -> "each hears the other up: " + heardByOne.changes + " / " + heardByJoiner.changes);
        Await.until(() -> joiner.members().size() == 2 && one.epoch() == joiner.epoch(), WAIT,
            "both see two members at one epoch");

        joiner.leave(false).get(30, TimeUnit.SECONDS);
        joiner.leave(true).get(30, TimeUnit.SECONDS);
        Await.until(() -> heardByOne.heard(id, MemberStatus.LEFT), WAIT, "node 1 hears the joiner leave");
        assertThat(heardByOne.leaseLost).isNull();
        assertThat(errors).isEmpty();
    }

    @Test
    void aNodeWithAWrongSecretOrATakenIdIsRefusedSayingWhy()
    {
        final MembershipConfig config = new MembershipConfig().voter(new VoterAddress(1, "127.0.0.1", freeBase()));
        final Membership one = start(config, 1, 7001, new Heard(), null);
        assertThat(one.awaitJoined(WAIT)).isEqualTo(1);

        assertThatThrownBy(() -> Membership.start(config, new Membership.Identity(9, 1, "127.0.0.1", 7009,
            "facade-test", SECRET, dir.resolve("n9").toFile(), dir.resolve("aeron-n1-7001").toString()), new Heard(),
            errors::add)).hasMessageContaining("a media driver is running in").hasMessageContaining("aeron-n1-7001");
        final Membership five = start(config, 5, 7005, new Heard(), null);
        assertThat(five.awaitJoined(WAIT)).isEqualTo(5);
        final Membership clash = start(config, 5, 7006, new Heard(), null);
        assertThatThrownBy(() -> clash.awaitJoined(WAIT)).hasMessageContaining("ID_TAKEN")
            .hasMessageContaining("node id 5 is taken by a live member at 127.0.0.1:7005");
        assertThatThrownBy(() -> start(config, 1, 7002, new Heard(), null))
            .hasMessageContaining("voter 1's ports 127.0.0.1:" + config.voters().get(0).port() + "..")
            .hasMessageContaining("are in use");

        final Membership wrong = start(config, 0, 7003, new Heard(), "a-wrong-secret-for-this-cluster!!");
        assertThatThrownBy(() -> wrong.awaitJoined(WAIT))
            .hasMessageContaining("rejected node 0: is troupe.cluster-secret or troupe.cluster-id ('facade-test')")
            .hasMessageContaining("troupe.membership.voters (or seeds) not the voters' list");
    }

    @Test
    void aNodeWhoseSeedsDoNotAnswerGivesUpAfterTheJoinTimeoutSayingWhere()
    {
        final int base = freeBase(); // no voter runs there
        final MembershipConfig config = new MembershipConfig().voter(new VoterAddress(1, "127.0.0.1", base))
            .joinTimeout(Duration.ofSeconds(3));
        final long start = System.nanoTime();
        final Membership lonely = start(config, 0, 7009, new Heard(), null);
        assertThatThrownBy(() -> lonely.awaitJoined(WAIT)).hasMessageContaining("could not join the membership " +
            "service at [VoterAddress[nodeId=1, host=127.0.0.1, port=" + base + "]] within 3000 ms");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(WAIT);
    }

    private static int freeBase()
    {
        return LoopbackPorts.freeUdpRuns(1, VoterAddress.PORTS)[0];
    }
}
