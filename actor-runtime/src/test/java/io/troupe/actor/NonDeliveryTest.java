package io.troupe.actor;

import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

import static io.troupe.actor.TestActors.USER_TYPE;
import static io.troupe.actor.TestActors.assertNothingArrives;
import static io.troupe.actor.TestActors.assertUndelivered;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The non-delivery path: unknown recipients, forwarding, notices, dead letters, other nodes.
 */
@Timeout(60)
class NonDeliveryTest
{
    private static final int NODE = 13;

    private final TestActors.DeadLetters deadLetters = new TestActors.DeadLetters();
    private ActorSystem system;
    private TestActors.Probe probe;
    private ActorId probeId;
    private TestActors.Recorder live;
    private ActorId liveId;

    @BeforeEach
    void setUp()
    {
        system = ActorSystem.start(TestActors.config(NODE)
            .pool(PoolConfig.named("main").threads(2))
            .pool(PoolConfig.named("other").threads(1))
            .deadLetterHandler(deadLetters));
        probe = new TestActors.Probe();
        probeId = system.register(probe);
        live = new TestActors.Recorder();
        liveId = system.register(live);
    }

    @AfterEach
    void tearDown()
    {
        system.close();
    }

    /** Addresses that name no actor, built from a live actor's id where that helps. */
    enum Unknown
    {
        UNUSED_HINT_ON_A_USED_LINE((node, live) -> ActorId.of(node, 424_242, 4_000)),
        HINT_ON_AN_UNALLOCATED_LINE((node, live) -> ActorId.of(node, 424_242, 1_000_000)),
        LARGEST_HINT((node, live) -> ActorId.of(node, 424_242, Integer.MAX_VALUE)),
        HINT_ZERO((node, live) -> ActorId.of(node, live.localId(), 0)),
        NEVER_EXISTED_ON_A_LIVE_MAILBOX((node, live) -> ActorId.of(node, 999_999, live.hint(), live.poolId())),
        LIVE_ACTOR_BUT_WRONG_POOL((node, live) -> ActorId.of(node, live.localId(), live.hint(), 1)),
        UNMAPPED_SERVICE_ON_NODE_ZERO((node, live) -> ServiceId.of(0, "nobody")),
        UNMAPPED_SERVICE_ON_THIS_NODE((node, live) -> ServiceId.of(node, "nobody"));

        final BiFunction<Integer, ActorId, ActorId> address;

        Unknown(final BiFunction<Integer, ActorId, ActorId> address)
        {
            this.address = address;
        }
    }

    @ParameterizedTest
    @EnumSource(Unknown.class)
    void trackedSendToAnUnknownRecipientComesBackAsUndelivered(final Unknown unknown) throws Exception
    {
        final ActorId to = unknown.address.apply(NODE, liveId);

        system.send(probeId, TestActors.Send.tracked(to, "knock knock", 0xC0FFEEL));

        assertUndelivered(probe.next(), probeId, to, USER_TYPE, 0xC0FFEEL, UndeliveredReason.ACTOR_UNKNOWN);
        assertThat(system.counters().undelivered()).isEqualTo(1);
        assertThat(live.received).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Unknown.class)
    void trackedSendFromOutsideToAnUnknownRecipientIsADeadLetter(final Unknown unknown) throws Exception
    {
        final ActorId to = unknown.address.apply(NODE, liveId);

        assertThat(system.send(to, "knock knock", USER_TYPE, Envelope.FLAG_TRACK_DELIVERY, 5L)).isTrue();

        final TestActors.DeadLetter letter = deadLetters.next();
        assertThat(letter.reason()).isEqualTo(UndeliveredReason.ACTOR_UNKNOWN);
        assertThat(letter.envelope().event()).isEqualTo("knock knock");
        assertThat(letter.envelope().cookie()).isEqualTo(5L);
        assertThat(system.counters().deadLetters()).isEqualTo(1);
        assertThat(live.received).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Unknown.class)
    void untrackedSendToAnUnknownRecipientIsDropped(final Unknown unknown) throws Exception
    {
        final ActorId to = unknown.address.apply(NODE, liveId);

        system.send(to, "from outside");
        system.send(probeId, TestActors.Send.untracked(to, "from an actor"));

        Await.equal(() -> system.counters().dropped(), 2L, "dropped");
        assertNothingArrives(probe.received, Duration.ofMillis(50));
        assertThat(deadLetters.received).isEmpty();
        assertThat(live.received).isEmpty();
    }

    @Test
    void forwardOnNondeliverySendsTheEventToTheTargetInstead() throws Exception
    {
        final ActorId nobody = ActorId.of(NODE, 424_242, 4_000);
        final TestActors.Send send = new TestActors.Send(
            nobody, "redirect me", USER_TYPE, Envelope.FLAG_TRACK_DELIVERY, 17L, liveId, false);

        system.send(probeId, send);

        final Envelope forwarded = live.next();
        assertThat(forwarded.event()).isEqualTo("redirect me");
        assertThat(forwarded.recipient()).isEqualTo(liveId);
        assertThat(forwarded.sender()).isEqualTo(probeId);
        assertThat(forwarded.type()).isEqualTo(USER_TYPE);
        assertThat(forwarded.cookie()).isEqualTo(17L);
        assertThat(forwarded.forwardTo()).as("the target does not forward again").isNull();
        assertThat(forwarded.flags() & Envelope.FLAG_FORWARD_ON_NONDELIVERY).isZero();
        assertThat(system.counters().forwarded()).isEqualTo(1);
        assertNothingArrives(probe.received, Duration.ofMillis(50));
        assertThat(system.counters().undelivered()).isZero();
    }

    @Test
    void forwardOnNondeliveryIsNotUsedWhenTheRecipientExists() throws Exception
    {
        final TestActors.Recorder spare = new TestActors.Recorder();
        final ActorId spareId = system.register(spare);

        system.send(probeId, new TestActors.Send(liveId, "direct", USER_TYPE, 0, 0L, spareId, false));

        assertThat(live.next().event()).isEqualTo("direct");
        assertThat(system.counters().forwarded()).isZero();
        assertNothingArrives(spare.received, Duration.ofMillis(50));
    }

    @Test
    void aForwardTargetThatDoesNotExistIsNotForwardedAgain() throws Exception
    {
        final ActorId nobody = ActorId.of(NODE, 424_242, 4_000);
        final ActorId nobodyEither = ActorId.of(NODE, 434_343, 4_001);

        system.send(probeId, new TestActors.Send(
            nobody, "twice unlucky", USER_TYPE, Envelope.FLAG_TRACK_DELIVERY, 23L, nobodyEither, false));

        final Envelope notice = probe.next();
        final Undelivered undelivered = (Undelivered)notice.event();
        assertThat(undelivered.reason()).isEqualTo(UndeliveredReason.ACTOR_UNKNOWN);
        assertThat(undelivered.cookie()).isEqualTo(23L);
        assertThat(undelivered.type()).isEqualTo(USER_TYPE);
        assertThat(undelivered.recipient()).isIn(nobody, nobodyEither);
        assertThat(notice.sender()).isEqualTo(undelivered.recipient());
        assertThat(system.counters().forwarded()).isEqualTo(1);
        assertNothingArrives(probe.received, Duration.ofMillis(50));
        assertThat(system.counters().forwarded()).isEqualTo(1);
        assertThat(system.counters().undelivered()).isEqualTo(1);
    }

    @Test
    void forwardOnNondeliveryWorksFromOutsideAndForEventsQueuedBehindAPassAway() throws Exception
    {
        final ActorId nobody = ActorId.of(NODE, 424_242, 4_000);
        assertThat(ActorSystemSpi.of(system).send(new Envelope(
            nobody, ActorId.NONE, USER_TYPE, Envelope.FLAG_FORWARD_ON_NONDELIVERY, 1L, "outside", liveId))).isTrue();
        assertThat(live.next().event()).isEqualTo("outside");

        final ActorId mortal = system.register((ctx, envelope) -> ctx.passAway());
        system.send(probeId, new TestActors.Send(mortal, "die", USER_TYPE, 0, 0L, null, false));
        system.send(probeId, new TestActors.Send(mortal, "orphan", USER_TYPE, 0, 2L, liveId, false));
        final Envelope orphan = live.next();
        assertThat(orphan.event()).isEqualTo("orphan");
        assertThat(orphan.sender()).isEqualTo(probeId);
        assertThat(system.counters().forwarded()).isEqualTo(2);
    }

    @Test
    void sendsToAnotherNodeAreUndeliveredAsDisconnected() throws Exception
    {
        final ActorId remoteActor = ActorId.of(NODE + 1, 5, 7);
        final ActorId remoteService = ServiceId.of(NODE + 1, "elsewhere");

        system.send(probeId, TestActors.Send.tracked(remoteActor, "hello", 1L));
        assertUndelivered(probe.next(), probeId, remoteActor, USER_TYPE, 1L, UndeliveredReason.DISCONNECTED);
        system.send(probeId, TestActors.Send.tracked(remoteService, "hello", 2L));
        assertUndelivered(probe.next(), probeId, remoteService, USER_TYPE, 2L, UndeliveredReason.DISCONNECTED);

        system.send(remoteActor, "hello", USER_TYPE, Envelope.FLAG_TRACK_DELIVERY, 3L);
        final TestActors.DeadLetter letter = deadLetters.next();
        assertThat(letter.reason()).isEqualTo(UndeliveredReason.DISCONNECTED);
        assertThat(letter.envelope().cookie()).isEqualTo(3L);

        final ExecutionException failed = assertThrows(ExecutionException.class,
            () -> system.ask(remoteActor, "hello", Await.DEFAULT_TIMEOUT)
                .get(Await.DEFAULT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        assertThat(failed.getCause()).isInstanceOf(UndeliveredException.class);
        assertThat(((UndeliveredException)failed.getCause()).undelivered().reason())
            .isEqualTo(UndeliveredReason.DISCONNECTED);

        system.send(remoteActor, "untracked");
        Await.equal(() -> system.counters().dropped(), 1L, "dropped");
    }

    @Test
    void aNoticeForASenderThatPassedAwayIsDroppedNotLooped() throws Exception
    {
        final ActorId nobody = ActorId.of(NODE, 424_242, 4_000);
        final ActorId shortLived = system.register(new TestActors.Probe());

        system.send(shortLived,
            new TestActors.Send(nobody, "last words", USER_TYPE, Envelope.FLAG_TRACK_DELIVERY, 9L, null, true));

        Await.equal(() -> system.counters().dropped(), 1L, "the orphaned notice is dropped");
        assertThat(system.counters().undelivered()).isEqualTo(1);
        assertNothingArrives(deadLetters.received, Duration.ofMillis(50));
        assertThat(system.counters().undelivered()).isEqualTo(1);
        assertThat(system.counters().dropped()).isEqualTo(1);
    }

    @Test
    void actorIdsOnNodeZeroAreLocal() throws Exception
    {
        final ActorId viaNodeZero = ActorId.of(0, liveId.localId(), liveId.hint(), liveId.poolId());

        system.send(viaNodeZero, "outside via node 0");
        system.send(probeId, TestActors.Send.untracked(viaNodeZero, "actor via node 0"));

        assertThat(live.next().event()).isEqualTo("outside via node 0");
        assertThat(live.next().event()).isEqualTo("actor via node 0");

        final ActorId unknownOnNodeZero = ActorId.of(0, 424_242, 4_000);
        system.send(probeId, TestActors.Send.tracked(unknownOnNodeZero, "hello", 4L));
        assertUndelivered(probe.next(), probeId, unknownOnNodeZero, USER_TYPE, 4L, UndeliveredReason.ACTOR_UNKNOWN);
    }
}
