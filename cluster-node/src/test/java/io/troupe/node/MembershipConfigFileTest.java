package io.troupe.node;

import io.troupe.membership.MembershipConfig;
import io.troupe.membership.table.VoterAddress;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;

import static io.troupe.node.NodeConfigErrorTest.assertError;
import static io.troupe.node.NodeConfigTest.MINIMAL;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code troupe.membership} in a node's config file: the voters or seeds, the timings, and what does not fit. */
class MembershipConfigFileTest
{
    private static final String THREE = "[ { id = 1, host = a, port = 40200 }, { id = 2, host = b, port = 40200 }, " +
        "{ id = 3, host = c, port = 40200 } ]";

    @Test
    void withoutVotersANodeHasNoMembershipAndKeepsItsPeers()
    {
        final NodeConfig config = NodeConfigLoader.parse(MINIMAL + "\ntroupe.peers = [ { id = 2, host = h, " +
            "port = 1 } ]");
        assertThat(config.membershipConfig().enabled()).isFalse();
        assertThat(config.membershipConfig().lease()).as("the default").isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void votersOrTheSameListAsSeedsAndTheTimingsAreRead()
    {
        final MembershipConfig voters = NodeConfigLoader.parse(MINIMAL + "\ntroupe.membership { voters = " + THREE +
            ", lease = 8s, renew-interval = 2s }").membershipConfig();
        assertThat(voters.voters()).containsExactly(new VoterAddress(1, "a", 40200), new VoterAddress(2, "b", 40200),
            new VoterAddress(3, "c", 40200));
        assertThat(voters.lease()).isEqualTo(Duration.ofSeconds(8));
        assertThat(voters.renewInterval()).isEqualTo(Duration.ofSeconds(2));
        final MembershipConfig seeds = NodeConfigLoader.parse(MINIMAL + "\ntroupe.membership.seeds = " + THREE)
            .membershipConfig();
        assertThat(seeds.voters()).isEqualTo(voters.voters());
        assertThat(NodeConfigLoader.parse(MINIMAL + "\ntroupe.membership { voters = " + THREE + ", seeds = " + THREE +
            " }").membershipConfig().voters()).hasSize(3);
    }

    @Test
    void aNodeWithSeedsAndNoIdHasOneAssignedAndItsFilesAreNamedAfterItsPort()
    {
        final String noId = "troupe { cluster-secret = \"" + NodeConfigTest.SECRET + "\", bind.port = 40101 }";
        final NodeConfig config = NodeConfigLoader.parse(noId + "\ntroupe.membership.seeds = " + THREE);
        assertThat(config.idAssigned()).isTrue();
        assertThat(config.nodeId()).isZero();
        assertThat(config.dataDir()).isEqualTo(Path.of(".", "data", "node-port-40101"));
        assertThat(config.interconnectConfig().conclude(0).aeronDir()).endsWith("-port-40101");
        assertThat(config.describe()).startsWith("a node (its id assigned when it joins)");

        final NodeConfig joined = config.withAssignedId(1004);
        assertThat(joined.nodeId()).isEqualTo(1004);
        assertThat(joined.dataDir()).as("kept: the next start finds it").isEqualTo(config.dataDir());
        assertThat(joined.interconnectConfig().conclude(1004).aeronDir()).endsWith("-port-40101");
        assertThat(joined.actorSystemConfig().conclude().nodeId()).isEqualTo(1004);

        assertError(noId, "troupe.node-id", "or troupe.membership.seeds, for a node that has one assigned");
    }

    @Test
    void whatDoesNotFitIsNamedByItsKey()
    {
        assertError(MINIMAL + "\ntroupe.membership.voters = [ { id = 1, host = a, port = 1 }, { id = 2, host = b, " +
            "port = 1 } ]", "troupe.membership.voters", "1, 3 or 5 voters");
        assertError(MINIMAL + "\ntroupe.membership { voters = " + THREE + ", seeds = [ { id = 1, host = a, " +
            "port = 40200 } ] }", "troupe.membership.seeds", "the same list as troupe.membership.voters");
        assertError(MINIMAL + "\ntroupe.membership.voters = " + THREE + "\ntroupe.peers = [ { id = 2, host = h, " +
            "port = 1 } ]", "troupe.peers", "no peers when troupe.membership.voters is set");
        assertError(MINIMAL + "\ntroupe.membership.voters = [ { id = 1, host = a, port = 65533 } ]",
            "troupe.membership.voters[0].port", "1..65531");
        assertError(MINIMAL + "\ntroupe.membership.voters = [ { id = 1, host = a, prot = 9 } ]",
            "troupe.membership.voters[0].prot", "host, id, port");
        assertError(MINIMAL + "\ntroupe.membership { voters = " + THREE + ", renew-interval = 9s }",
            "troupe.membership.renew-interval", "plus safety-margin (PT1S) must be less than the lease");
        assertError(MINIMAL + "\ntroupe.membership.lease = 10ms", "troupe.membership.lease", "1s..10m");
    }
}
