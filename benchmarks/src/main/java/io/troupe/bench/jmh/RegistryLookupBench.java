package io.troupe.bench.jmh;

import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.PoolConfig;
import io.troupe.actor.ServiceId;
import io.troupe.registry.RegistryConfig;
import io.troupe.registry.ReplicaLayout;
import io.troupe.registry.ReplicaReader;
import io.troupe.registry.ServiceInstance;
import io.troupe.registry.ServiceRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Looking a name up in the service directory: {@code registry.lookup.local}, in the node's own directory (a
 * concurrent map read), and {@code registry.lookup.shm}, in the Chronicle Map replica that a directory in another
 * process ({@link ReplicaWriterMain}) writes, read through a {@link ReplicaReader} as a client on the node's host
 * reads it ({@code lookupShm} builds the instances, {@code lookupShmInto} reads them into reusable room and allocates
 * nothing). 1,000 names with one instance each; each call looks up the next name. Sampled time (p50, p99) per
 * lookup:
 *
 * <pre>
 * java -jar benchmarks/target/troupe-benchmarks.jar jmh RegistryLookupBench -f 1 -wi 3 -i 5 -w 1 -r 1 -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
    "--add-opens", "java.base/java.lang=ALL-UNNAMED", "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
    "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-exports", "jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
    "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED"})
public class RegistryLookupBench
{
    private static final int NAMES = 1_000;

    /**
     * A node's directory, and a reader of a replica that a directory in another process writes
     * ({@link ReplicaWriterMain}), as a client on the node's host reads it.
     */
    @State(Scope.Benchmark)
    public static class Directory
    {
        Path dir;
        ActorSystem system;
        ServiceRegistry registry;
        Process writer;
        ReplicaReader reader;
        final ServiceId[] names = new ServiceId[NAMES];

        /**
         * Registers the names here, starts the writer process and opens its replica.
         *
         * @throws IOException if the temporary directory or the writer cannot be made.
         */
        @Setup(Level.Trial)
        public void setUp() throws IOException
        {
            dir = Files.createTempDirectory("troupe-lookup-bench");
            system = ActorSystem.start(new ActorSystemConfig().nodeId(1).pool(PoolConfig.named("default").threads(1)));
            registry = ServiceRegistry.start(system, null, new RegistryConfig().capacity(NAMES * 2));
            for (int i = 0; i < NAMES; i++)
            {
                names[i] = ServiceId.of(0, "name-" + i);
                registry.register(names[i], system.register((ctx, envelope) -> { }));
            }
            final List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(List.of("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"));
            command.addAll(ReplicaLayout.JVM_FLAGS);
            command.addAll(List.of("-Xmx256m", "-cp", System.getProperty("java.class.path"),
                ReplicaWriterMain.class.getName(), dir.toString(), Integer.toString(NAMES)));
            writer = new ProcessBuilder(command).redirectErrorStream(true).start();
            final BufferedReader out = new BufferedReader(new InputStreamReader(writer.getInputStream(),
                StandardCharsets.UTF_8));
            String line;
            while ((line = out.readLine()) != null && !line.equals("ready"))
            {
                // its log
            }
            if (line == null)
            {
                throw new IllegalStateException("the replica writer exited before it was ready");
            }
            reader = ReplicaReader.open(dir);
        }

        /**
         * Closes everything, stops the writer and removes the files.
         *
         * @throws InterruptedException if interrupted while the writer exits.
         */
        @TearDown(Level.Trial)
        public void tearDown() throws InterruptedException
        {
            reader.close();
            registry.close();
            system.close();
            try
            {
                writer.getOutputStream().close();
            }
            catch (final IOException ignored)
            {
                // it is gone already
            }
            if (!writer.waitFor(10, TimeUnit.SECONDS))
            {
                writer.destroyForcibly();
            }
            try (var files = Files.list(dir))
            {
                files.forEach(file -> file.toFile().delete());
            }
            catch (final IOException ignored)
            {
                // a temporary directory
            }
            dir.toFile().delete();
        }
    }

    /** Which name comes next, and room for what a lookup finds, per thread. */
    @State(Scope.Thread)
    public static class Cursor
    {
        int next;
        final ReplicaReader.Instances found = new ReplicaReader.Instances(4);

        int advance()
        {
            next = next + 1 == NAMES ? 0 : next + 1;
            return next;
        }
    }

    /**
     * A lookup in the node's own directory.
     *
     * @param directory the directory.
     * @param cursor    the next name.
     * @return the instances.
     */
    @Benchmark
    public List<ServiceInstance> lookupLocal(final Directory directory, final Cursor cursor)
    {
        return directory.registry.lookup(directory.names[cursor.advance()]);
    }

    /**
     * A lookup in the replica, through shared memory.
     *
     * @param directory the reader.
     * @param cursor    the next name.
     * @return the instances.
     */
    @Benchmark
    public List<ServiceInstance> lookupShm(final Directory directory, final Cursor cursor)
    {
        return directory.reader.lookup(directory.names[cursor.advance()]);
    }

    /**
     * A lookup in the replica, through shared memory, into reusable room: no allocation.
     *
     * @param directory the reader.
     * @param cursor    the next name, and the room.
     * @return how many instances the name has.
     */
    @Benchmark
    public int lookupShmInto(final Directory directory, final Cursor cursor)
    {
        return directory.reader.lookupInto(directory.names[cursor.advance()], cursor.found);
    }
}
