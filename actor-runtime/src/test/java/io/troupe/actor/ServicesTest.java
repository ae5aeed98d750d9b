package io.troupe.actor;

import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static io.troupe.actor.TestActors.USER_TYPE;
import static io.troupe.actor.TestActors.assertNothingArrives;
import static io.troupe.actor.TestActors.assertUndelivered;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Local services: mapping a {@link ServiceId} to an actor, rewriting sends, unmapping and replacing.
 */
@Timeout(60)
class ServicesTest
{
    private static final int NODE = 14;
    private static final ServiceId ECHO = ServiceId.of(0, "echo");

    private ActorSystem system;
    private TestActors.Recorder echo;
    private ActorId echoId;
    private TestActors.Probe probe;
    private ActorId probeId;

    @BeforeEach
    void setUp()
    {
        system = TestActors.start(NODE, 2);
        echo = new TestActors.Recorder();
        echoId = system.register(echo);
        probe = new TestActors.Probe();
        probeId = system.register(probe);
    }

    @AfterEach
    void tearDown()
    {
        system.close();
    }

    @Test
    void sendsToTheServiceOnNodeZeroOrThisNodeReachTheActorWithTheRecipientRewritten() throws Exception
    {
        assertThat(system.registerService(ECHO, echoId)).isNull();

        system.send(ECHO, "outside via node 0");
        system.send(ServiceId.of(NODE, "echo"), "outside via node " + NODE);
        system.send(probeId, TestActors.Send.untracked(ECHO, "actor via node 0"));
        system.send(probeId, TestActors.Send.untracked(ECHO.onNode(NODE), "actor via node " + NODE));

        for (final String expected : List.of("outside via node 0", "outside via node " + NODE))
        {
            final Envelope received = echo.next();
            assertThat(received.event()).isEqualTo(expected);
            assertThat(received.recipient()).as("rewritten to the actor id").isEqualTo(echoId);
            assertThat(received.recipient().isService()).isFalse();
            assertThat(received.sender().isNone()).isTrue();
        }
        for (final String expected : List.of("actor via node 0", "actor via node " + NODE))
        {
            final Envelope received = echo.next();
            assertThat(received.event()).isEqualTo(expected);
            assertThat(received.recipient()).isEqualTo(echoId);
            assertThat(received.sender()).isEqualTo(probeId);
        }
    }

    @Test
    void lookupFindsTheMappingUnderEitherNodeForm()
    {
        assertThat(system.lookupService(ECHO)).isNull();
        system.registerService(ServiceId.of(NODE, "echo"), echoId);
        assertThat(system.lookupService(ECHO)).isEqualTo(echoId);
        assertThat(system.lookupService(ServiceId.of(NODE, "echo"))).isEqualTo(echoId);
        assertThat(system.lookupService(ServiceId.of(0, "echo2"))).isNull();
        assertThat(system.lookupService(ServiceId.of(0, "ech"))).isNull();
    }

    @Test
    void aServiceCannotMapToAnotherServiceId()
    {
        final ServiceId other = ServiceId.of(0, "other");
        system.registerService(other, echoId);

        assertThatThrownBy(() -> system.registerService(ECHO, other))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("service");
        assertThatThrownBy(() -> system.registerService(ECHO, ServiceId.of(NODE, "other")))
            .isInstanceOf(IllegalArgumentException.class);
        assertThat(system.lookupService(ECHO)).isNull();
    }

    @Test
    void servicesAndActorsOfOtherNodesAreRefused()
    {
        assertThatThrownBy(() -> system.registerService(ServiceId.of(NODE + 1, "echo"), echoId))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("node");
        assertThatThrownBy(() -> system.registerService(ECHO, ActorId.of(NODE + 1, echoId.localId(), echoId.hint())))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("node");
        assertThat(system.lookupService(ECHO)).isNull();
        // the same name on another node is not this node's mapping: not found here, not removable from here
        system.registerService(ECHO, echoId);
        assertThat(system.lookupService(ServiceId.of(NODE + 1, "echo"))).isNull();
        assertThatThrownBy(() -> system.unregisterService(ServiceId.of(NODE + 1, "echo")))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("node");
        assertThat(system.lookupService(ECHO)).isEqualTo(echoId);
        assertThatThrownBy(() -> system.registerService(null, echoId)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> system.registerService(ECHO, null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void unregisteringMakesLaterSendsUndelivered() throws Exception
    {
        system.registerService(ECHO, echoId);
        assertThat(system.unregisterService(ECHO)).isEqualTo(echoId);
        assertThat(system.lookupService(ECHO)).isNull();
        assertThat(system.unregisterService(ECHO)).as("nothing left to remove").isNull();

        system.send(probeId, TestActors.Send.tracked(ECHO, "anyone?", 8L));

        assertUndelivered(probe.next(), probeId, ECHO, USER_TYPE, 8L, UndeliveredReason.ACTOR_UNKNOWN);
        assertThat(echo.received).isEmpty();
        final ExecutionException failed = assertThrows(ExecutionException.class,
            () -> system.ask(ECHO, "anyone?", Await.DEFAULT_TIMEOUT)
                .get(Await.DEFAULT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        assertThat(((UndeliveredException)failed.getCause()).undelivered().reason())
            .isEqualTo(UndeliveredReason.ACTOR_UNKNOWN);
        assertThat(((UndeliveredException)failed.getCause()).undelivered().recipient()).isEqualTo(ECHO);
    }

    @Test
    void unregisteringUnderTheThisNodeFormRemovesTheNodeZeroMapping()
    {
        system.registerService(ECHO, echoId);
        assertThat(system.unregisterService(ECHO.onNode(NODE))).isEqualTo(echoId);
        assertThat(system.lookupService(ECHO)).isNull();
    }

    @Test
    void registeringAgainReplacesTheMappingAndReturnsThePreviousOne() throws Exception
    {
        final TestActors.Recorder second = new TestActors.Recorder();
        final ActorId secondId = system.register(second);

        assertThat(system.registerService(ECHO, echoId)).isNull();
        assertThat(system.registerService(ECHO.onNode(NODE), secondId)).isEqualTo(echoId);
        assertThat(system.lookupService(ECHO)).isEqualTo(secondId);

        system.send(ECHO, "to whoever is echo now");
        final Envelope received = second.next();
        assertThat(received.event()).isEqualTo("to whoever is echo now");
        assertThat(received.recipient()).isEqualTo(secondId);
        assertNothingArrives(echo.received, Duration.ofMillis(50));
    }

    @Test
    void askThroughAServiceGetsTheMappedActorsReply() throws Exception
    {
        final ActorId replier = system.register((ctx, envelope) -> ctx.reply("pong:" + envelope.event()));
        system.registerService(ServiceId.of(0, "pinger"), replier);

        assertThat(system.ask(ServiceId.of(NODE, "pinger"), "ping", Await.DEFAULT_TIMEOUT)
            .get(Await.DEFAULT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("pong:ping");
    }

    @Test
    void aServiceMappedToAnActorThatPassedAwayIsUndelivered() throws Exception
    {
        final ActorId mortal = system.register((ctx, envelope) -> ctx.passAway());
        system.registerService(ECHO, mortal);
        system.send(mortal, "die");
        Await.equal(() -> system.counters().actorsAlive(), 2L, "actors alive");

        system.send(probeId, TestActors.Send.tracked(ECHO, "hello?", 3L));

        final Envelope notice = probe.next();
        final Undelivered undelivered = (Undelivered)notice.event();
        assertThat(undelivered.reason()).isEqualTo(UndeliveredReason.ACTOR_UNKNOWN);
        assertThat(undelivered.cookie()).isEqualTo(3L);
        // the send was rewritten to the actor before its mailbox turned it away
        assertThat(undelivered.recipient()).isIn(ECHO, mortal);
        assertThat(system.lookupService(ECHO)).as("mappings are not removed when the actor passes away")
            .isEqualTo(mortal);
    }

    @Test
    void manyServicesMapIndependently() throws Exception
    {
        final int count = 100;
        final List<ActorId> actors = new ArrayList<>();
        final TestActors.Recorder shared = new TestActors.Recorder();
        for (int i = 0; i < count; i++)
        {
            final ActorId actor = system.register(shared);
            actors.add(actor);
            assertThat(system.registerService(ServiceId.of(0, "svc-" + i), actor)).isNull();
        }
        for (int i = 0; i < count; i++)
        {
            assertThat(system.lookupService(ServiceId.of(NODE, "svc-" + i))).as("svc-%d", i).isEqualTo(actors.get(i));
        }
        for (int i = 0; i < count; i += 2)
        {
            assertThat(system.unregisterService(ServiceId.of(0, "svc-" + i))).isEqualTo(actors.get(i));
        }
        for (int i = 0; i < count; i++)
        {
            final ActorId expected = i % 2 == 0 ? null : actors.get(i);
            assertThat(system.lookupService(ServiceId.of(0, "svc-" + i))).as("svc-%d", i).isEqualTo(expected);
        }
        for (int i = 1; i < count; i += 2)
        {
            system.send(ServiceId.of(0, "svc-" + i), i);
        }
        for (int i = 1; i < count; i += 2)
        {
            final Envelope received = shared.next();
            assertThat(received.recipient()).isEqualTo(actors.get((Integer)received.event()));
        }
    }
}
