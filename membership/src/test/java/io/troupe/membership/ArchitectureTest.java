package io.troupe.membership;

import io.troupe.testing.ArchitectureRules;
import org.junit.jupiter.api.Test;

/** This module follows the house rules (see {@link ArchitectureRules}). */
class ArchitectureTest
{
    @Test
    void followsTheHouseRules()
    {
        ArchitectureRules.check(ArchitectureRules.Module.MEMBERSHIP);
    }
}
