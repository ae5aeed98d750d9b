package io.troupe.registry;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.PoolConfig;
import io.troupe.actor.ServiceId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The directory's Chronicle Map replica: written as names change, read by another map on the same file. */
@Timeout(60)
class DirectoryReplicaTest
{
    private static final ServiceId ECHO = ServiceId.of(0, "echo");

    @TempDir
    Path dir;

    private final ActorSystem system = ActorSystem.start(new ActorSystemConfig().nodeId(6).threadNamePrefix("rep-")
        .pool(PoolConfig.named("default").threads(1)));
    private ServiceRegistry registry;

    @AfterEach
    void tearDown()
    {
        if (registry != null)
        {
            registry.close();
        }
        system.close();
    }

    private ServiceRegistry start()
    {
        registry = ServiceRegistry.start(system, null, new RegistryConfig().capacity(1_000).replicaDirectory(dir));
        return registry;
    }

    @Test
    void aReaderOnTheSameFileSeesNamesComeAndGoAsTheyChange()
    {
        start();
        try (ReplicaReader reader = ReplicaReader.open(dir))
        {
            assertThat(reader.writer()[0]).isEqualTo(6);
            assertThat(reader.lookup(ECHO)).isEmpty();

            final ActorId first = system.register((ctx, envelope) -> { });
            final ActorId second = system.register((ctx, envelope) -> { });
            final ServiceInstance one = registry.register(ECHO, first);
            final ServiceInstance two = registry.register(ECHO, second);
            assertThat(reader.lookup(ECHO)).containsExactly(one, two);
            assertThat(reader.lookup(ServiceId.of(6, "echo"))).containsExactly(one, two);
            assertThat(reader.lookup(ServiceId.of(7, "echo"))).isEmpty();
            assertThat(reader.names()).isEqualTo(1);
            final ServiceInstance longest = registry.register(ServiceId.of(0, "twelve-chars"), first);
            assertThat(reader.all()).containsExactly(Map.entry("echo", List.of(one, two)),
                Map.entry("twelve-chars", List.of(longest)));
            registry.unregister(ServiceId.of(0, "twelve-chars"), first);
            final ReplicaReader.Instances into = new ReplicaReader.Instances(1);
            assertThat(reader.lookupInto(ECHO, into)).as("both, though room for one").isEqualTo(2);
            assertThat(into.count()).isEqualTo(1);
            assertThat(into.actor(0)).isEqualTo(first);
            assertThat(into.incarnation(0)).isEqualTo(one.incarnation());
            assertThat(reader.lookupInto(ServiceId.of(7, "echo"), into)).isZero();
            assertThat(reader.lookupInto(ServiceId.of(0, "nobody"), into)).isZero();
            assertThat(into.count()).isZero();

            registry.unregister(ECHO, first);
            assertThat(reader.lookup(ECHO)).containsExactly(two);
            registry.unregister(ECHO, second);
            assertThat(reader.lookup(ECHO)).isEmpty();
            assertThat(reader.names()).isZero();
        }
    }

    @Test
    void theClassesChronicleWouldCompileAtRunTimeComeCompiledWithTheModule()
    {
        // the build compiled them into the module's classes (ChronicleAheadOfTime), so no node runs javac to open
        // its replica; the replicas these tests open use them
        assertThat(ChronicleAheadOfTime.VALUE_INTERFACES).allMatch(ChronicleAheadOfTime::precompiled);
    }

    @Test
    void aRestartStartsFromAnEmptyReplicaOnTheSameFile()
    {
        start().register(ServiceId.of(0, "old"), system.register((ctx, envelope) -> { }));
        registry.close();

        start();
        assertThat(registry.replicaSetAside()).isFalse();
        try (ReplicaReader reader = ReplicaReader.open(dir))
        {
            assertThat(reader.lookup(ServiceId.of(0, "old"))).as("the old start's names are gone").isEmpty();
            final ServiceInstance fresh = registry.register(ServiceId.of(0, "new"), system.register((ctx, e) -> { }));
            assertThat(reader.lookup(ServiceId.of(0, "new"))).containsExactly(fresh);
        }
    }

    @Test
    void aDamagedFileIsMovedAsideAndAFreshOneMade() throws IOException
    {
        Files.write(dir.resolve(ReplicaLayout.FILE_NAME), "not a chronicle map at all".getBytes());

        start();
        assertThat(registry.replicaSetAside()).isTrue();
        try (var files = Files.list(dir))
        {
            assertThat(files.map(p -> p.getFileName().toString()))
                .anyMatch(name -> name.startsWith(ReplicaLayout.FILE_NAME + ".bad-"));
        }
        final ServiceInstance instance = registry.register(ECHO, system.register((ctx, envelope) -> { }));
        try (ReplicaReader reader = ReplicaReader.open(dir))
        {
            assertThat(reader.lookup(ECHO)).containsExactly(instance);
        }
    }

    @Test
    void aReaderOfAnotherLayoutVersionOrOfNoReplicaIsToldWhichAndWhy() throws IOException
    {
        assertThatThrownBy(() -> ReplicaReader.open(dir)).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("no directory replica");

        start();
        registry.close();
        registry = null;
        try (var map = DirectoryReplica.builder(1_000).createPersistedTo(dir.resolve(ReplicaLayout.FILE_NAME).toFile()))
        {
            final byte[] header = ReplicaLayout.header(6, 1);
            header[4] = 9; // layout version 9
            map.put(ReplicaLayout.HEADER_KEY, header);
        }
        assertThatThrownBy(() -> ReplicaReader.open(dir)).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("layout version 9")
            .hasMessageContaining("layout version " + ReplicaLayout.LAYOUT_VERSION);

        start();
        assertThat(registry.replicaSetAside()).as("the node moves a file of another layout aside").isTrue();
        assertThat(List.of(registry.lookup(ECHO).toArray())).isEmpty();
    }
}
