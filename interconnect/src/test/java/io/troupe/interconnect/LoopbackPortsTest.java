package io.troupe.interconnect;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class LoopbackPortsTest
{
    @Test
    void freePortsAreDistinctAndInRange()
    {
        final int[] ports = LoopbackPorts.freeUdp(8);
        assertThat(ports).hasSize(8).doesNotHaveDuplicates();
        for (final int port : ports)
        {
            assertThat(port).isBetween(1, 65535);
        }
    }

    @Test
    void portsComeFromBelowTheEphemeralRangeWhereTheKernelSaysWhereItIs()
    {
        final int ephemeral = LoopbackPorts.ephemeralStart();
        assumeTrue(ephemeral - LoopbackPorts.FIRST >= 64 * 16, "no ephemeral range known here");
        for (final int port : LoopbackPorts.freeUdp(16))
        {
            // a released ephemeral port is the next one the kernel gives a socket bound to port 0
            assertThat(port).isBetween(LoopbackPorts.FIRST, ephemeral - 1);
        }
    }

    @Test
    void aShareIsOneOfEqualSlicesOfTheRangeAndABadOneIsRefused()
    {
        assertThat(LoopbackPorts.range(32_768, null)).containsExactly(10_000, 32_768);
        assertThat(LoopbackPorts.range(32_768, "1/2")).containsExactly(10_000, 21_384);
        assertThat(LoopbackPorts.range(32_768, "2/2")).containsExactly(21_384, 32_768);
        assertThat(LoopbackPorts.range(32_768, "3/2")).as("wraps").containsExactly(10_000, 21_384);
        assertThat(LoopbackPorts.range(32_768, "2/1")).containsExactly(10_000, 32_768);
        assertThat(LoopbackPorts.range(0, "1/2")).as("no range known: the kernel picks")
            .containsExactly(10_000, 10_000);
        for (final String bad : new String[] {"0/2", "1/0", "2", "a/b", "1/65"})
        {
            assertThatThrownBy(() -> LoopbackPorts.range(32_768, bad)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(LoopbackPorts.SHARE_PROPERTY + " = " + bad);
        }
    }

    @Test
    void aCountOutOfRangeIsRefused()
    {
        assertThatThrownBy(() -> LoopbackPorts.freeUdp(0)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("count 0 out of range 1..1024");
        assertThatThrownBy(() -> LoopbackPorts.freeUdp(1025)).isInstanceOf(IllegalArgumentException.class);
    }
}
