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
    void aCountOutOfRangeIsRefused()
    {
        assertThatThrownBy(() -> LoopbackPorts.freeUdp(0)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("count 0 out of range 1..1024");
        assertThatThrownBy(() -> LoopbackPorts.freeUdp(1025)).isInstanceOf(IllegalArgumentException.class);
    }
}
