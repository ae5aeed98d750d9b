package io.troupe.registry;

import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.PoolConfig;
import io.troupe.actor.ServiceId;
import io.troupe.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Another process on the host reads the replica live: a child JVM watches the file while this one's directory
 * registers 10,000 names, and sees every one, with no torn entry, through shared memory alone.
 */
@Timeout(120)
class ReplicaChildProcessTest
{
    private static final int NAMES = 10_000;
    /** How long the child JVM may take to start and open the replica, on a slow machine. */
    private static final Duration CHILD_OPENS = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void aChildJvmSeesTenThousandRegistrationsLiveFromSharedMemory() throws Exception
    {
        try (ActorSystem system = ActorSystem.start(new ActorSystemConfig().nodeId(3).threadNamePrefix("child-")
                .pool(PoolConfig.named("default").threads(1)));
            ServiceRegistry registry = ServiceRegistry.start(system, null,
                new RegistryConfig().capacity(NAMES + 10).replicaDirectory(dir)))
        {
            final List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.add("--add-exports");
            command.add("java.base/jdk.internal.misc=ALL-UNNAMED");
            command.addAll(ReplicaLayout.JVM_FLAGS);
            command.addAll(List.of("-Xmx256m", "-cp", System.getProperty("java.class.path"),
                ReplicaWatcher.class.getName(), dir.toString(), Integer.toString(NAMES), "90"));
            final Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
            // read by this thread while the reader adds to it
            final List<String> output = new CopyOnWriteArrayList<>();
            final Thread reading = new Thread(() ->
            {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8)))
                {
                    String line;
                    while ((line = in.readLine()) != null)
                    {
                        output.add(line);
                    }
                }
                catch (final IOException ignored)
                {
                    // the child ended
                }
            });
            reading.start();
            Await.until(() -> output.stream().anyMatch(l -> l.startsWith("opened")) || !child.isAlive(), CHILD_OPENS,
                () -> "the child opens the replica: " + output);
            assertThat(output).as("the child opened the replica: " + output).anyMatch(l -> l.startsWith("opened"));

            for (int i = 0; i < NAMES; i++)
            {
                registry.register(ServiceId.of(0, "name-" + i), system.register((ctx, envelope) -> { }));
            }

            assertThat(child.waitFor(90, TimeUnit.SECONDS)).as("the child finished").isTrue();
            // the child's last line may still be on its way through the pipe: the reader ends at its end
            reading.join(Await.DEFAULT_TIMEOUT.toMillis());
            assertThat(reading.isAlive()).as("the child's output read to its end").isFalse();
            assertThat(child.exitValue()).as(String.join("\n", output)).isZero();
            assertThat(output).anyMatch(l -> l.startsWith("all " + NAMES + " seen"));
        }
    }
}
