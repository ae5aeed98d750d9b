package io.troupe.chaos;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PauseLogTest
{
    @Test
    void namesTheLongestStopAndGcPauseAndCountsTheLongStops()
    {
        final List<String> log = List.of(
            "[0.012s] Using G1",
            "[1.500s] Safepoint \"Cleanup\", Time since last: 1000 ns, Reaching safepoint: 2000 ns, Cleanup: 10 ns, " +
                "At safepoint: 3000 ns, Total: 5000 ns",
            "[3.250s] GC(4) Pause Young (Normal) (G1 Evacuation Pause) 90M->20M(192M) 12.345ms",
            "[17.204s] GC(9) Pause Full (G1 Compaction Pause) 180M->60M(192M) 1180.250ms",
            "[17.205s] Safepoint \"G1CollectFull\", Time since last: 1 ns, Reaching safepoint: 20000000 ns, " +
                "Cleanup: 1 ns, At safepoint: 1183400000 ns, Total: 1203400000 ns",
            "[18.000s] Safepoint \"G1CollectForAllocation\", Time since last: 1 ns, Reaching safepoint: 1 ns, " +
                "Cleanup: 1 ns, At safepoint: 160000000 ns, Total: 160000002 ns");

        assertThat(PauseLog.summary(log)).isEqualTo("longest stop 1203.4 ms at 17.205 s (G1CollectFull); 2 stops " +
            ">= 150 ms; longest GC pause 1180.3 ms at 17.204 s (GC(9) Pause Full (G1 Compaction Pause))");
    }

    @Test
    void anEmptyLogSaysNone()
    {
        assertThat(PauseLog.summary(List.of())).isEqualTo("longest stop none; 0 stops >= 150 ms; longest GC pause " +
            "none");
    }
}
