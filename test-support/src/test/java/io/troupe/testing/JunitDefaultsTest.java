package io.troupe.testing;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/** The JUnit defaults every module's tests get from this module's junit-platform.properties. */
@ExtendWith(JunitDefaultsTest.Parameters.class)
class JunitDefaultsTest
{
    @Test
    void aHangingTestFailsAfterAMinuteUnlessItSaysOtherwise(final ExtensionContext context)
    {
        assertThat(context.getConfigurationParameter("junit.jupiter.execution.timeout.default")).contains("60 s");
    }

    /** Hands the test its extension context, through which it reads the configuration. */
    static final class Parameters implements ParameterResolver
    {
        @Override
        public boolean supportsParameter(final ParameterContext parameter, final ExtensionContext context)
        {
            return parameter.getParameter().getType() == ExtensionContext.class;
        }

        @Override
        public Object resolveParameter(final ParameterContext parameter, final ExtensionContext context)
        {
            return context;
        }
    }
}
