package io.troupe.actor;

import io.troupe.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;

import static io.troupe.actor.TestActors.USER_TYPE;
import static io.troupe.actor.TestActors.assertNothingArrives;
import static io.troupe.actor.TestActors.assertUndelivered;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Local ids are never reused, across starts of a node too: a start counts them up from its incarnation × 1024, so an
 * id of an earlier start names no actor of a later one even where the later start puts an actor on the same mailbox.
 */
@Timeout(60)
class LocalIdsTest
{
    private static final int NODE = 21;

    @Test
    void localIdsCountUpFromTheIncarnationTimes1024()
    {
        assertThat(ActorId.firstLocalId(1)).isEqualTo(1024L);
        assertThat(ActorId.firstLocalId(ActorId.MAX_INCARNATION)).as("below the reply-slot bit").isPositive();
        assertThatThrownBy(() -> ActorId.firstLocalId(0)).hasMessageContaining("incarnation 0 out of range");
        assertThatThrownBy(() -> ActorId.firstLocalId(ActorId.MAX_INCARNATION + 1))
            .isInstanceOf(IllegalArgumentException.class);

        try (ActorSystem system = ActorSystem.start(TestActors.config(NODE).incarnation(5_000)))
        {
            final ActorId first = system.register(new TestActors.Recorder());
            final ActorId second = system.register(new TestActors.Recorder());
            assertThat(first.localId()).isGreaterThanOrEqualTo(5_000L * 1024).isLessThan(5_001L * 1024);
            assertThat(second.localId()).isGreaterThan(first.localId());
        }
    }

    @Test
    void anIdOfAnEarlierStartNamesNoActorOfTheNextOnTheSameMailbox() throws Exception
    {
        final ActorId old;
        try (ActorSystem before = ActorSystem.start(TestActors.config(NODE).incarnation(1_000)))
        {
            before.register(new TestActors.Probe());
            old = before.register(new TestActors.Recorder());
        }

        try (ActorSystem after = ActorSystem.start(TestActors.config(NODE).incarnation(2_000)))
        {
            final TestActors.Probe probe = new TestActors.Probe();
            final ActorId probeId = after.register(probe);
            final TestActors.Recorder successor = new TestActors.Recorder();
            final ActorId successorId = after.register(successor);
            assertThat(successorId.hint()).as("registered in the same order: the same mailbox").isEqualTo(old.hint());
            assertThat(successorId).isNotEqualTo(old);

            after.send(probeId, TestActors.Send.tracked(old, "for the old actor", 42L));
            assertUndelivered(probe.next(), probeId, old, USER_TYPE, 42L, UndeliveredReason.ACTOR_UNKNOWN);
            after.send(old, "untracked, from outside");
            Await.equal(() -> after.counters().dropped(), 1L, "dropped and counted");
            assertNothingArrives(successor.received, Duration.ofMillis(50));

            after.send(successorId, "for the new actor");
            assertThat(successor.next().event()).isEqualTo("for the new actor");
        }
    }

    @Test
    void withoutAnIncarnationEachStartOfThisJvmTakesIdsAboveTheLast()
    {
        final ActorId last;
        try (ActorSystem before = ActorSystem.start(TestActors.config(NODE)))
        {
            before.register(new TestActors.Recorder());
            last = before.register(new TestActors.Recorder());
        }
        final ActorSystemConfig config = TestActors.config(NODE);
        try (ActorSystem after = ActorSystem.start(config))
        {
            assertThat(config.incarnation()).as("the wall clock in microseconds")
                .isGreaterThan(1_700_000_000_000_000L);
            assertThat(after.register(new TestActors.Recorder()).localId()).isGreaterThan(last.localId());
        }
    }
}
