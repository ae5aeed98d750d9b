package io.troupe.actor;

import org.junit.jupiter.api.Test;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import java.io.Writer;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The typed layer's promise that a wrong send does not compile, checked by compiling small programs against the
 * API with the JDK's compiler.
 */
class TypedApiCompileTest
{
    private static final String HEADER = "import io.troupe.actor.*;\n" +
        "import java.time.*;\n" +
        "class Snippet {\n" +
        "  record Increment(int by) {}\n" +
        "  record Count(long value) {}\n" +
        "  record GetCount(ActorRef<Count> replyTo) {}\n" +
        "  void run(ActorSystem system, ActorRef<Increment> counter, ActorRef<GetCount> getter) {\n";
    private static final String FOOTER = "  }\n}\n";

    @Test
    void rightlyTypedSendsAndAsksCompile() throws Exception
    {
        assertThat(compile("system.send(counter, new Increment(1));\n" +
            "java.util.concurrent.CompletableFuture<Count> c = system.ask(getter, GetCount::new, Count.class, " +
            "Duration.ofSeconds(1));\n")).isEmpty();
    }

    @Test
    void aSendOfTheWrongTypeDoesNotCompile() throws Exception
    {
        assertThat(compile("system.send(counter, \"one\");\n")).isNotEmpty();
        assertThat(compile("system.send(counter, new Count(1));\n")).isNotEmpty();
    }

    @Test
    void anAskWhoseRequestOrReplyTypeIsWrongDoesNotCompile() throws Exception
    {
        // the target does not accept the request the function builds
        assertThat(compile("system.ask(counter, GetCount::new, Count.class, Duration.ofSeconds(1));\n")).isNotEmpty();
        // the future is not of the reply type asked for
        assertThat(compile("java.util.concurrent.CompletableFuture<Increment> c = system.ask(getter, GetCount::new, " +
            "Count.class, Duration.ofSeconds(1));\n")).isNotEmpty();
    }

    /** Compiles a snippet against the test's class path; the errors it gives. */
    private static List<String> compile(final String body) throws Exception
    {
        final JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        final DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        final Path out = Files.createTempDirectory("typed-compile-");
        final JavaFileObject source = new SimpleJavaFileObject(URI.create("string:///Snippet.java"),
            JavaFileObject.Kind.SOURCE)
        {
            @Override
            public CharSequence getCharContent(final boolean ignoreEncodingErrors)
            {
                return HEADER + body + FOOTER;
            }
        };
        final List<String> options = List.of("-classpath", System.getProperty("java.class.path"), "-d", out.toString(),
            "-proc:none");
        try
        {
            compiler.getTask(Writer.nullWriter(), null, diagnostics, options, null, List.of(source)).call();
        }
        finally
        {
            try (Stream<Path> files = Files.walk(out))
            {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
        final List<String> errors = new ArrayList<>();
        for (final Diagnostic<? extends JavaFileObject> diagnostic : diagnostics.getDiagnostics())
        {
            if (diagnostic.getKind() == Diagnostic.Kind.ERROR)
            {
                errors.add(diagnostic.getMessage(null));
            }
        }
        return errors;
    }
}
