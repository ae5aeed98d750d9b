package io.troupe.testing;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import io.troupe.testing.ArchitectureRules.Module;
import io.troupe.testing.fixture.Offender;
import io.troupe.testing.fixture.cycle.a.A;
import io.troupe.testing.fixture.cycle.b.B;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The rules catch what they are for: checked on fixture classes that break each one. */
class ArchitectureRulesTest
{
    private static List<String> violations(final Class<?>... fixtures)
    {
        final JavaClasses classes = new ClassFileImporter().importClasses(fixtures);
        final List<String> reports = new ArrayList<>();
        for (final ArchRule rule : ArchitectureRules.of(Module.TESTING))
        {
            reports.addAll(rule.evaluate(classes).getFailureReport().getDetails());
        }
        return reports;
    }

    @Test
    void aPackageCycleIsCaught()
    {
        assertThat(String.join("\n", violations(A.class, B.class))).contains("Cycle detected", "fixture.cycle.a",
            "fixture.cycle.b");
    }

    @Test
    void printingUsingAModuleOutOfOrderAndAnotherModulesInternalsAreCaught()
    {
        final String report = String.join("\n", violations(Offender.class));
        assertThat(report)
            .contains("System.out", "io.troupe.memquota.fixture.Quota", "io.troupe.other.internal.Hidden");
    }

    @Test
    void theToolboxItselfFollowsTheRules()
    {
        ArchitectureRules.check(Module.TESTING);
    }

    @Test
    void eachModuleMayUseOnlyModulesBelowIt()
    {
        assertThat(Module.MEMQUOTA.allowed()).isEmpty();
        assertThat(Module.ACTOR.allowed()).containsExactly(Module.MEMQUOTA);
        assertThat(Module.INTERCONNECT.allowed()).doesNotContain(Module.BROKER, Module.NODE);
        for (final Module module : Module.values())
        {
            assertThat(module.allowed()).as("%s", module).doesNotContain(module);
            for (final Module below : module.allowed())
            {
                assertThat(below.allowed()).as("%s may not use %s back", below, module).doesNotContain(module);
            }
        }
    }
}
