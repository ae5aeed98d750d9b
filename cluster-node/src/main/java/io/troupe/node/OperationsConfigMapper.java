package io.troupe.node;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigValue;
import io.troupe.node.metrics.MetricsSettings;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Maps the settings of what surrounds a node's work that are not declared (see {@link OpsSettings} and
 * {@link MetricsSettings} for those that are): the Prometheus endpoint's bearer token and the application
 * {@code troupe node} runs ({@code troupe.application}). Part of {@link NodeConfigMapper}, which gives it its reader
 * and its file helpers; each method throws a {@link NodeConfigException} naming the key at fault, which the mapper
 * collects.
 */
final class OperationsConfigMapper
{
    static final String APPLICATION_SETUP = Application.SETUP_KEY;
    static final String APPLICATION_LIB_DIR = Application.LIB_DIR_KEY;
    static final String METRICS_TOKEN = "troupe.metrics.prometheus.bearer-token";
    static final String METRICS_TOKEN_FILE = "troupe.metrics.prometheus.bearer-token-file";

    private final ConfigReader in;
    private final Function<String, byte[]> secretFile;

    OperationsConfigMapper(final ConfigReader in, final Function<String, byte[]> secretFile)
    {
        this.in = in;
        this.secretFile = secretFile;
    }

    /** {@code troupe.application.setup} into a config, and a check that its lib-dir (declared) is a directory. */
    void application(final ApplicationConfig application)
    {
        final ConfigList list = in.list(APPLICATION_SETUP,
            "a list of class names such as [\"com.example.OrdersSetup\"]");
        final List<String> names = new ArrayList<>();
        for (final ConfigValue value : list)
        {
            final Object name = value.unwrapped();
            if (!(name instanceof String text) ||
                !text.matches("\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*" +
                    "(\\.\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*)*"))
            {
                throw in.invalid(APPLICATION_SETUP, "expected class names such as \"com.example.OrdersSetup\", not " +
                    value.render());
            }
            names.add(text);
        }
        application.setupClasses(names);
        final Path libDir = application.libDir();
        if (libDir != null && !Files.isDirectory(libDir))
        {
            throw in.invalid(APPLICATION_LIB_DIR, "expected a directory of jars; " + libDir +
                (Files.exists(libDir) ? " is not a directory" : " does not exist"));
        }
    }

    /** The Prometheus endpoint's bearer token, checked, or null if none is set. */
    String bearerToken()
    {
        final boolean inline = in.isSet(METRICS_TOKEN);
        final boolean file = in.isSet(METRICS_TOKEN_FILE);
        if (inline && file)
        {
            throw in.invalid(METRICS_TOKEN_FILE, "allowed only one of " + METRICS_TOKEN + " and " + METRICS_TOKEN_FILE);
        }
        String token = null;
        if (inline || file)
        {
            token = inline ? in.string(METRICS_TOKEN) :
                new String(secretFile.apply(METRICS_TOKEN_FILE), StandardCharsets.UTF_8);
            if (token.length() < 16 || !token.chars().allMatch(c -> c > 0x20 && c < 0x7F))
            {
                throw in.invalid(inline ? METRICS_TOKEN : METRICS_TOKEN_FILE,
                    "allowed a token of at least 16 printable ASCII characters without spaces (it has " +
                        token.length() + ")");
            }
        }
        return token;
    }
}
