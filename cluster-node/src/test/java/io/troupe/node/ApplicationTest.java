package io.troupe.node;

import io.troupe.actor.ServiceId;
import io.troupe.node.local.LocalCluster;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code troupe.application}: the setup classes {@code troupe node} runs, by name or from a library directory. */
@Timeout(60)
class ApplicationTest
{
    @TempDir
    Path dir;

    private final List<Node> nodes = new ArrayList<>();

    @AfterEach
    void tearDown()
    {
        for (final Node node : nodes)
        {
            node.close();
        }
    }

    private NodeConfig config(final String... settings)
    {
        return NodeConfigLoader.load(LocalCluster.create(dir.resolve("cluster"), 1, settings).configFile(1),
            new Properties());
    }

    private Node startApplication(final NodeConfig config)
    {
        final Application application = Application.load(config);
        final Node node = Node.start(config, application.codecs());
        nodes.add(node);
        application.setUp(node);
        return node;
    }

    @Test
    void aSetupClassNamedInTheConfigBringsItsCodecsAndRegistersItsServices() throws Exception
    {
        final Node node = startApplication(config("troupe.application.setup = [\"" +
            TestSetups.EchoSetup.class.getName() + "\"]"));
        assertThat(node.registry().lookup(TestSetups.APP_ECHO)).hasSize(1);
        assertThat(node.system().ask(TestSetups.APP_ECHO, new TestEvents.Note("hi"), TestEvents.NOTE,
            Duration.ofSeconds(30)).get(30, TimeUnit.SECONDS)).isEqualTo(new TestEvents.Note("app: hi"));
        assertThat(Application.load(node.config()).names()).containsExactly(TestSetups.EchoSetup.class.getName());
        assertThat(node.config().describe())
            .contains("application   " + TestSetups.EchoSetup.class.getName() + " (class path)");
    }

    @Test
    void withNoNamesEveryNodeSetupAJarOfTheLibDirDeclaresIsRun() throws Exception
    {
        final Path lib = Files.createDirectories(dir.resolve("lib"));
        packageLibrary(lib.resolve("orders.jar"));
        final NodeConfig config = config("troupe.application.lib-dir = \"" + lib + "\"");
        final Node node = startApplication(config);
        Await.until(() -> !node.registry().lookup(ServiceId.of(0, "orders")).isEmpty(), Duration.ofSeconds(5),
            "the library's service registered");
        assertThat(Application.load(config).names()).containsExactly("lib.OrdersSetup");
        assertThatThrownBy(() -> Class.forName("lib.OrdersSetup")).as("only in the library, not on the class path")
            .isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void aMissingOrWrongClassIsAConfigErrorNamingIt()
    {
        final String nope = "com.example.Nope";
        final NodeConfig missing = config("troupe.application.setup = [\"" + nope + "\"]");
        assertThatThrownBy(() -> Application.load(missing)).isInstanceOf(NodeConfigException.class)
            .hasMessageEndingWith(": troupe.application.setup: no class " + nope + " on the class path")
            .satisfies(ex -> assertThat(((NodeConfigException)ex).keyPath()).isEqualTo("troupe.application.setup"));
        final NodeConfig wrong = config("troupe.application.setup = [\"java.lang.String\"]");
        assertThatThrownBy(() -> Application.load(wrong)).isInstanceOf(NodeConfigException.class)
            .hasMessageEndingWith(String.class.getName() + " does not implement " + NodeSetup.class.getName());
        assertThatThrownBy(() -> config("troupe.application.setup = [\"not a class\"]"))
            .isInstanceOf(NodeConfigException.class).hasMessageContaining("expected class names");
        assertThatThrownBy(() -> config("troupe.application.lib-dir = \"" + dir.resolve("no-such-lib") + "\""))
            .isInstanceOf(NodeConfigException.class).hasMessageContaining("troupe.application.lib-dir")
            .hasMessageContaining("does not exist");
        final NodeConfig unmakeable = config("troupe.application.setup = [\"" +
            TestSetups.UnmakeableSetup.class.getName() + "\"]");
        assertThatThrownBy(() -> Application.load(unmakeable)).isInstanceOf(NodeStartException.class)
            .hasMessage("setup class " + TestSetups.UnmakeableSetup.class.getName() + " could not be made: " +
                "java.lang.IllegalStateException: no licence file");
    }

    /** Compiles a NodeSetup that registers "orders" and packs it with its service declaration into a jar. */
    private void packageLibrary(final Path jar) throws IOException
    {
        final Path src = Files.createDirectories(dir.resolve("src/lib"));
        Files.writeString(src.resolve("OrdersSetup.java"), String.join("\n",
            "package lib;",
            "import io.troupe.actor.*;",
            "import io.troupe.node.*;",
            "public final class OrdersSetup implements NodeSetup {",
            "    @Override public void setup(Node node) {",
            "        node.registry().register(ServiceId.of(0, \"orders\"),",
            "            node.system().register((ctx, envelope) -> { }));",
            "    }",
            "}"));
        final Path classes = Files.createDirectories(dir.resolve("classes"));
        final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac.run(null, null, null, "-classpath", System.getProperty("java.class.path"), "-d",
            classes.toString(), src.resolve("OrdersSetup.java").toString())).isZero();
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file))
        {
            out.putNextEntry(new JarEntry("lib/OrdersSetup.class"));
            out.write(Files.readAllBytes(classes.resolve("lib/OrdersSetup.class")));
            out.closeEntry();
            out.putNextEntry(new JarEntry("META-INF/services/io.troupe.node.NodeSetup"));
            out.write("lib.OrdersSetup\n".getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
    }
}
