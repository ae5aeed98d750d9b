package io.troupe.node;

import io.troupe.testing.GeneratedFile;
import com.typesafe.config.ConfigFactory;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.ActorSystemSettings;
import io.troupe.actor.FlowControlConfig;
import io.troupe.actor.FlowControlSettings;
import io.troupe.interconnect.InterconnectConfig;
import io.troupe.interconnect.InterconnectSettings;
import io.troupe.interconnect.scheduler.SchedulerConfig;
import io.troupe.interconnect.scheduler.SchedulerSettings;
import io.troupe.membership.MembershipConfig;
import io.troupe.membership.MembershipSettings;
import io.troupe.memquota.Setting;
import io.troupe.node.client.ClientIngressConfig;
import io.troupe.node.client.ClientIngressSettings;
import io.troupe.node.metrics.MetricsConfig;
import io.troupe.node.metrics.MetricsSettings;
import io.troupe.registry.RegistryConfig;
import io.troupe.registry.RegistrySettings;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The declared settings ({@link Setting}) are the one place a setting is described: its default in the config class,
 * its entry in {@code troupe-reference.conf} (comment and value) and its row in {@code docs/configuration.md} are made
 * from the declaration. This test fails when a file and a declaration differ and says how to make them again:
 * {@code ./mvnw -pl cluster-node test -Dtest=DeclaredSettingsTest -Dtroupe.settings.write=true} rewrites the
 * entries and rows of declared settings (a new setting's are added at the end of its section) from the declarations.
 */
class DeclaredSettingsTest
{
    private static final Path REFERENCE = Path.of("src/main/resources", NodeConfigLoader.REFERENCE_RESOURCE);
    private static final Path DOCS = Path.of("..", "docs", "configuration.md");
    private static final boolean WRITE = Boolean.getBoolean("troupe.settings.write");
    private static final String REWRITE = "./mvnw -pl cluster-node test -Dtest=DeclaredSettingsTest " +
        "-Dtroupe.settings.write=true";

    @Test
    void everyDefaultIsAllowedAndIsTheConfigClassDefault()
    {
        final List<Setting<?, ?>> checked = new ArrayList<>();
        checkDefaults(InterconnectSettings.ALL, new InterconnectConfig(), checked);
        checkDefaults(ActorSystemSettings.ALL, new ActorSystemConfig(), checked);
        checkDefaults(FlowControlSettings.ALL, new FlowControlConfig(), checked);
        checkDefaults(ClientIngressSettings.ALL, new ClientIngressConfig(), checked);
        checkDefaults(RegistrySettings.ALL, new RegistryConfig(), checked);
        checkDefaults(SchedulerSettings.ALL, new SchedulerConfig(), checked);
        checkDefaults(MembershipSettings.ALL, new MembershipConfig(), checked);
        checkDefaults(OpsSettings.ALL, new OpsConfig(), checked);
        checkDefaults(MetricsSettings.ALL, new MetricsConfig(), checked);
        checkDefaults(ApplicationSettings.ALL, new ApplicationConfig(), checked);
        // a component's list added to DeclaredSettings.ALL needs its line above
        assertThat(checked).as("the lists checked here").containsExactlyInAnyOrderElementsOf(DeclaredSettings.ALL);
        final Set<String> keys = new HashSet<>();
        for (final Setting<?, ?> setting : DeclaredSettings.ALL)
        {
            assertThat(keys.add(setting.key())).as("declared once: " + setting).isTrue();
            assertThat(setting.doc()).as(setting + " has a doc line").isNotBlank();
        }
    }

    private static <C> void checkDefaults(final List<Setting<C, ?>> settings, final C defaults,
        final List<Setting<?, ?>> checked)
    {
        for (final Setting<C, ?> setting : settings)
        {
            assertThat((Object)setting.get(defaults)).as(setting.toString()).isEqualTo(setting.defaultValue());
            setting.check(defaults);
            checked.add(setting);
        }
    }

    @Test
    void theReferenceFileHoldsEachDeclarationsDefaultAndDoc() throws IOException
    {
        // the file made first (a new setting's entry is added by the write), then what it holds read back
        final List<String> lines = Files.readAllLines(REFERENCE, StandardCharsets.UTF_8);
        final List<String> made = ReferenceEntries.apply(lines, DeclaredSettings.ALL);
        assertMadeFrom(REFERENCE, lines, made);
        final ConfigReader reference = new ConfigReader(ConfigFactory.parseString(String.join("\n", made)).resolve(),
            "", REFERENCE.toString());
        for (final Setting<?, ?> setting : DeclaredSettings.ALL)
        {
            assertThat((Object)DeclaredSettings.read(reference, setting)).as(setting + " in the reference file")
                .isEqualTo(setting.defaultValue());
        }
        // and the file on the class path, which nodes read, is that file
        assertThat(NodeConfigLoader.reference()).isEqualTo(ConfigFactory.parseString(String.join("\n", lines))
            .resolve());
    }

    @Test
    void theConfigurationDocsHaveEachDeclarationsRow() throws IOException
    {
        final List<String> lines = Files.readAllLines(DOCS, StandardCharsets.UTF_8);
        assertMadeFrom(DOCS, lines, DocsRows.apply(lines, DeclaredSettings.ALL));
    }

    @Test
    void aValueIsWrittenAsAFileWouldWriteIt()
    {
        assertThat(Setting.size(1 << 30)).isEqualTo("1GiB");
        assertThat(Setting.size(64 * 1024)).isEqualTo("64KiB");
        assertThat(Setting.size(8 * 1024)).isEqualTo("8KiB");
        assertThat(Setting.size(1024)).isEqualTo("1024");
        assertThat(Setting.size(1408)).isEqualTo("1408");
        assertThat(Setting.duration(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(Setting.duration(Duration.ofMinutes(10))).isEqualTo("10m");
        assertThat(Setting.duration(Duration.ofNanos(100_000))).isEqualTo("100us");
        assertThat(InterconnectSettings.BULK_TERM_LENGTH.allowed()).isEqualTo("a power of 2, 64KiB..1GiB");
        assertThat(InterconnectSettings.IDLE.allowed()).isEqualTo("backoff or spin");
        assertThat(InterconnectSettings.MTU.allowed()).isEqualTo("a multiple of 32, 1024..65504");
    }

    private static void assertMadeFrom(final Path file, final List<String> lines, final List<String> made)
        throws IOException
    {
        GeneratedFile.check(file, lines, made, WRITE, "the settings declarations", REWRITE);
    }

    /** Rewrites the entries of declared settings in the reference file: the comment above the key, and the value. */
    static final class ReferenceEntries
    {
        private static final int WIDTH = 116;

        static List<String> apply(final List<String> lines, final List<? extends Setting<?, ?>> settings)
        {
            final List<String> out = new ArrayList<>(lines);
            for (final Setting<?, ?> setting : settings)
            {
                final String[] path = setting.key().split("\\.");
                final int block = blockOf(out, path);
                final String indent = "  ".repeat(path.length);
                final String leaf = path[path.length - 1];
                int at = find(out, block, indent + leaf + " = ");
                if (at < 0)
                {
                    at = endOf(out, block);
                    out.add(at, indent + leaf + " = ");
                }
                int first = at;
                while (first > 0 && out.get(first - 1).startsWith(indent + "#"))
                {
                    first--;
                }
                final List<String> entry = comment(indent, setting);
                entry.add(indent + leaf + " = " + formatDefault(setting));
                for (int i = at; i >= first; i--)
                {
                    out.remove(i);
                }
                out.addAll(first, entry);
            }
            return out;
        }

        private static <T> String formatDefault(final Setting<?, T> setting)
        {
            return setting.format(setting.defaultValue());
        }

        static List<String> comment(final String indent, final Setting<?, ?> setting)
        {
            final String text = setting.doc() + (setting.allowed().isEmpty() ? "" :
                " Allowed: " + setting.allowed() + ".");
            final List<String> lines = new ArrayList<>();
            StringBuilder line = new StringBuilder(indent + "#");
            for (final String word : text.split(" "))
            {
                if (line.length() + 1 + word.length() > WIDTH && line.length() > indent.length() + 1)
                {
                    lines.add(line.toString());
                    line = new StringBuilder(indent + "#");
                }
                line.append(' ').append(word);
            }
            lines.add(line.toString());
            return lines;
        }

        /** The line of {@code name {} that opens a setting's block (the {@code troupe} block for a top-level key). */
        private static int blockOf(final List<String> lines, final String[] path)
        {
            int at = find(lines, -1, "troupe {");
            for (int depth = 0; depth < path.length - 1; depth++)
            {
                at = find(lines, at, "  ".repeat(depth + 1) + path[depth] + " {");
                if (at < 0)
                {
                    throw new AssertionError("no block " + String.join(".", path) + " in the reference file");
                }
            }
            return at;
        }

        private static int endOf(final List<String> lines, final int block)
        {
            final String indent = lines.get(block).substring(0, lines.get(block).indexOf(lines.get(block).trim()));
            return find(lines, block, indent + "}");
        }

        private static int find(final List<String> lines, final int after, final String start)
        {
            for (int i = after + 1; i < lines.size(); i++)
            {
                if (lines.get(i).startsWith(start))
                {
                    return i;
                }
            }
            return -1;
        }
    }

    /** Rewrites the rows of declared settings in the configuration docs' tables. */
    static final class DocsRows
    {
        static List<String> apply(final List<String> lines, final List<? extends Setting<?, ?>> settings)
        {
            final List<String> out = new ArrayList<>(lines);
            for (final Setting<?, ?> setting : settings)
            {
                final String row = row(setting);
                final int at = find(out, "| `" + setting.key() + "` |");
                if (at >= 0)
                {
                    out.set(at, row);
                    continue;
                }
                final String section = setting.key().contains(".") ?
                    setting.key().substring(0, setting.key().indexOf('.') + 1) : "";
                int last = -1;
                for (int i = 0; i < out.size(); i++)
                {
                    if (out.get(i).startsWith("| `" + section) && !section.isEmpty())
                    {
                        last = i;
                    }
                }
                if (last < 0)
                {
                    throw new AssertionError("no table in " + DOCS + " for " + setting + ": add a section with a " +
                        "row of its section's keys");
                }
                out.add(last + 1, row);
            }
            return out;
        }

        @SuppressWarnings("unchecked")
        static String row(final Setting<?, ?> setting)
        {
            final String value = ((Setting<?, Object>)setting).format(setting.defaultValue());
            final String allowed = setting.allowed().isEmpty() ? "" : setting.allowed() + ". ";
            return "| `" + setting.key() + "` | `" + value + "` | " + allowed + setting.doc() + " |";
        }

        private static int find(final List<String> lines, final String start)
        {
            for (int i = 0; i < lines.size(); i++)
            {
                if (lines.get(i).startsWith(start))
                {
                    return i;
                }
            }
            return -1;
        }
    }
}
