package io.troupe.membership;

import io.troupe.membership.table.VoterAddress;
import io.troupe.memquota.ConfigurationException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The membership's settings, alone and together. */
class MembershipConfigTest
{
    private static MembershipConfig voters(final int count)
    {
        final MembershipConfig config = new MembershipConfig();
        for (int i = 1; i <= count; i++)
        {
            config.voter(new VoterAddress(i, "10.0.0." + i, 9000));
        }
        return config;
    }

    @Test
    void theDefaultsFitTogetherAndNoVotersMeansNoMembership()
    {
        assertThat(new MembershipConfig().conclude().enabled()).isFalse();
        final MembershipConfig three = voters(3).conclude();
        assertThat(three.enabled()).isTrue();
        assertThat(three.voterIndex(2)).isEqualTo(1);
        assertThat(three.voterIndex(9)).isEqualTo(-1);
        assertThat(three.lease()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void twoOrFourVotersAreRefusedAsAreClashingOnes()
    {
        assertThatThrownBy(() -> voters(2).conclude()).isInstanceOf(ConfigurationException.class)
            .hasMessageContaining("1, 3 or 5 voters");
        assertThatThrownBy(() -> voters(4).conclude()).isInstanceOf(ConfigurationException.class);
        final MembershipConfig config = voters(1);
        assertThatThrownBy(() -> config.voter(new VoterAddress(1, "10.0.0.9", 9000)))
            .hasMessageContaining("clashes with");
        assertThatThrownBy(() -> config.voter(new VoterAddress(2, "10.0.0.1", 9003)))
            .hasMessageContaining("clashes with");
        config.voter(new VoterAddress(2, "10.0.0.1", 9005));
    }

    @Test
    void settingsThatDoNotFitTogetherAreNamed()
    {
        assertThatThrownBy(() -> voters(1).renewInterval(Duration.ofSeconds(9)).conclude())
            .hasMessageContaining("renew-interval (PT9S) plus safety-margin (PT1S) must be less than the lease");
        assertThatThrownBy(() -> voters(1).heartbeatTimeout(Duration.ofSeconds(8)).startupCanvass(
            Duration.ofSeconds(16)).conclude()).hasMessageContaining("heartbeat-timeout (PT8S) + renew-interval " +
            "(PT1S) + safety-margin (PT1S) + 1 s for an election must be at most the lease (PT10S)");
        assertThatThrownBy(() -> voters(1).startupCanvass(Duration.ofSeconds(7)).conclude())
            .hasMessageContaining("a multiple of heartbeat-timeout");
        assertThatThrownBy(() -> voters(1).startupCanvass(Duration.ofSeconds(2)).conclude())
            .hasMessageContaining("must be a multiple of heartbeat-timeout (PT2S), at least twice it");
        assertThat(voters(1).startupCanvass(Duration.ofSeconds(4)).conclude().startupCanvass())
            .isEqualTo(Duration.ofSeconds(4));
        assertThatThrownBy(() -> new MembershipConfig().lease(Duration.ofMillis(10)))
            .isInstanceOf(ConfigurationException.class);
    }

    @Test
    void aVoterAddressIsCheckedAndMakesAeronClustersStrings()
    {
        assertThatThrownBy(() -> new VoterAddress(1, "h", 65_533)).hasMessageContaining("four after it free");
        final List<VoterAddress> list = List.of(new VoterAddress(1, "a", 9000),
            new VoterAddress(2, "b", 9100));
        assertThat(VoterAddress.clusterMembers(list))
            .isEqualTo("0,a:9000,a:9001,a:9002,a:9003,a:9004|1,b:9100,b:9101,b:9102,b:9103,b:9104");
        assertThat(VoterAddress.ingressEndpoints(list)).isEqualTo("0=a:9000,1=b:9100");
    }
}
