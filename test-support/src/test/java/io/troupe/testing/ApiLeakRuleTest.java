package io.troupe.testing;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import io.troupe.testing.fixture.LeakyApi;
import io.troupe.testing.fixture.internal.Hidden;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The house rule that an API class extends and exposes no internal type finds each way of doing it. */
class ApiLeakRuleTest
{
    @Test
    void anApiClassThatExtendsOrHandsOutAnInternalTypeIsReported()
    {
        final JavaClasses classes = new ClassFileImporter().importClasses(LeakyApi.class, Hidden.class);
        final List<String> reports = new ArrayList<>();
        for (final ArchRule rule : ArchitectureRules.of(ArchitectureRules.Module.TESTING))
        {
            reports.add(rule.evaluate(classes).getFailureReport().toString());
        }
        final String all = String.join("\n", reports);

        assertThat(all).contains(LeakyApi.class.getName() + " extends " + Hidden.class.getName())
            .contains(LeakyApi.class.getName() + ".field exposes " + Hidden.class.getName())
            .contains(LeakyApi.class.getName() + ".method(" + Hidden.class.getName() + ") exposes " +
                Hidden.class.getName())
            .doesNotContain("notApi");
    }
}
