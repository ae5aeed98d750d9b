package io.troupe.bench.jmh;

import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.PoolConfig;
import io.troupe.actor.ServiceId;
import io.troupe.registry.RegistryConfig;
import io.troupe.registry.ServiceRegistry;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The writer of {@link RegistryLookupBench}'s replica, in a process of its own: a directory (node 1, no peers)
 * that registers {@code name-0 .. name-(N-1)} with a replica in the given directory, prints {@code ready}, and
 * keeps the replica until its standard input closes. Arguments: the directory, N.
 */
public final class ReplicaWriterMain
{
    private ReplicaWriterMain()
    {
    }

    /**
     * Runs the writer.
     *
     * @param args the directory and the number of names.
     * @throws IOException if standard input fails.
     */
    public static void main(final String[] args) throws IOException
    {
        final Path dir = Path.of(args[0]);
        final int names = Integer.parseInt(args[1]);
        try (ActorSystem system = ActorSystem.start(new ActorSystemConfig().nodeId(1)
                .pool(PoolConfig.named("default").threads(1)));
            ServiceRegistry registry = ServiceRegistry.start(system, null,
                new RegistryConfig().capacity(names * 2).replicaDirectory(dir)))
        {
            for (int i = 0; i < names; i++)
            {
                registry.register(ServiceId.of(0, "name-" + i), system.register((ctx, envelope) -> { }));
            }
            System.out.println("ready");
            System.out.flush();
            while (System.in.read() >= 0)
            {
                // until the benchmark closes our standard input
            }
        }
    }
}
