package io.troupe.bench.jmh;

import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.PoolConfig;
import io.troupe.actor.ServiceId;
import io.troupe.registry.RegistryConfig;
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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Looking a name up in the service directory: {@code registry.lookup.local}, in the node's own directory (a
 * concurrent map read), and {@code registry.lookup.shm}, in the directory's Chronicle Map replica through a
 * {@link ReplicaReader}, a map of its own over the file the node writes, as another process on the host opens
 * it ({@code lookupShm} builds the instances, {@code lookupShmInto} reads them into reusable room and allocates
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
    "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED", "--add-exports", "jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
    "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED"})
public class RegistryLookupBench
{
    private static final int NAMES = 1_000;

    /** A node's directory with a replica, and a reader of the replica. */
    @State(Scope.Benchmark)
    public static class Directory
    {
        Path dir;
        ActorSystem system;
        ServiceRegistry registry;
        ReplicaReader reader;
        final ServiceId[] names = new ServiceId[NAMES];

        /**
         * Registers the names and opens the reader.
         *
         * @throws IOException if the temporary directory cannot be made.
         */
        @Setup(Level.Trial)
        public void setUp() throws IOException
        {
            dir = Files.createTempDirectory("troupe-lookup-bench");
            system = ActorSystem.start(new ActorSystemConfig().nodeId(1).pool(PoolConfig.named("default").threads(1)));
            registry = ServiceRegistry.start(system, null, new RegistryConfig().capacity(NAMES * 2).replicaDirectory(dir));
            for (int i = 0; i < NAMES; i++)
            {
                names[i] = ServiceId.of(0, "name-" + i);
                registry.register(names[i], system.register((ctx, envelope) -> { }));
            }
            reader = ReplicaReader.open(dir);
        }

        /** Closes everything and removes the files. */
        @TearDown(Level.Trial)
        public void tearDown()
        {
            reader.close();
            registry.close();
            system.close();
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
