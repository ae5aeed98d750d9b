package io.troupe.actor.internal.mailbox;

import io.troupe.actor.MailboxType;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract every mailbox type must meet, run once per type by a concrete subclass.
 */
abstract class MailboxContractTest
{
    private static final int HINT = 7;
    private static final int POOL = 3;
    private static final int NODE_ID = 9;

    private final Mailbox mailbox = newMailbox(HINT, POOL);

    abstract Mailbox newMailbox(int hint, int poolId);

    abstract MailboxType expectedType();

    // ---------------------------------------------------------------- identity

    @Test
    void reportsItsTypeHintAndPool()
    {
        assertThat(mailbox.type()).isEqualTo(expectedType());
        assertThat(mailbox.hint()).isEqualTo(HINT);
        assertThat(mailbox.poolId()).isEqualTo(POOL);
    }

    // ---------------------------------------------------------------- queue

    @Test
    void emptyPollReturnsNull()
    {
        assertThat(mailbox.poll()).isNull();
        assertThat(mailbox.poll()).isNull();
        assertThat(mailbox.hasPending()).isFalse();
    }

    @Test
    void pollReturnsThePushedNode()
    {
        final TestNode node = new TestNode(0, 0);

        mailbox.push(node);

        assertThat(mailbox.poll()).isSameAs(node);
        assertThat(mailbox.poll()).isNull();
    }

    // ---------------------------------------------------------------- first slot

    @Test
    void anActivatingSendToAnEmptyMailboxSkipsTheQueueAndComesFirst()
    {
        final TestNode activating = new TestNode(0, 0);
        final TestNode later = new TestNode(0, 1);
        assertThat(mailbox.tryMarkScheduled()).isTrue();

        mailbox.pushActivating(activating);
        mailbox.push(later); // the same sender again, while the mailbox is scheduled

        assertThat(mailbox.hasPending()).isTrue();
        assertThat(mailbox.poll()).isSameAs(activating);
        assertThat(mailbox.poll()).isSameAs(later);
        assertThat(mailbox.poll()).isNull();
        assertThat(mailbox.hasPending()).isFalse();
    }

    @Test
    void anActivatingSendGoesBehindWhatIsAlreadyQueued()
    {
        // a sender's earlier event is still queued when the mailbox went idle (the reader's re-check is pending);
        // its next event activates the mailbox and must not overtake the earlier one
        final TestNode earlier = new TestNode(0, 0);
        final TestNode activating = new TestNode(0, 1);
        assertThat(mailbox.tryMarkScheduled()).isTrue();
        mailbox.markRunning();
        mailbox.push(earlier);
        mailbox.markIdle();
        assertThat(mailbox.tryMarkScheduled()).isTrue();

        mailbox.pushActivating(activating);

        assertThat(mailbox.poll()).isSameAs(earlier);
        assertThat(mailbox.poll()).isSameAs(activating);
        assertThat(mailbox.poll()).isNull();
    }

    @Test
    void theFirstSlotIsReusedAfterItWasTaken()
    {
        for (int i = 0; i < 5; i++)
        {
            final TestNode node = new TestNode(0, i);
            assertThat(mailbox.tryMarkScheduled()).isTrue();
            mailbox.pushActivating(node);
            mailbox.markRunning();
            assertThat(mailbox.poll()).isSameAs(node);
            assertThat(mailbox.poll()).isNull();
            mailbox.markIdle();
            assertThat(mailbox.hasPending()).isFalse();
        }
    }

    @Test
    void envelopesAreNodes()
    {
        final Envelope envelope = new Envelope(ActorId.of(0, 1L, HINT), ActorId.NONE, 1, 0, 0L, "e", null);

        mailbox.push(envelope);

        assertThat(mailbox.poll()).isSameAs(envelope);
    }

    @Test
    void fifoAcrossSeveralSegments()
    {
        final int count = 3 * RevolvingMailbox.SEGMENT_SIZE + 17;
        final List<TestNode> pushed = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            final TestNode node = new TestNode(0, i);
            pushed.add(node);
            mailbox.push(node);
        }

        for (int i = 0; i < count; i++)
        {
            assertThat(mailbox.poll()).as("element %d", i).isSameAs(pushed.get(i));
        }
        assertThat(mailbox.poll()).isNull();
        assertThat(mailbox.hasPending()).isFalse();
    }

    @Test
    void interleavedPushAndPollKeepOrder()
    {
        // two in, one out: the queue grows slowly across segment boundaries while it is read
        final int rounds = 4 * RevolvingMailbox.SEGMENT_SIZE;
        int nextIn = 0;
        int nextOut = 0;
        for (int round = 0; round < rounds; round++)
        {
            mailbox.push(new TestNode(0, nextIn++));
            mailbox.push(new TestNode(0, nextIn++));
            final TestNode polled = (TestNode)mailbox.poll();
            assertThat(polled).isNotNull();
            assertThat(polled.sequence).isEqualTo(nextOut++);
        }
        TestNode polled;
        while ((polled = (TestNode)mailbox.poll()) != null)
        {
            assertThat(polled.sequence).isEqualTo(nextOut++);
        }
        assertThat(nextOut).isEqualTo(nextIn);
        assertThat(mailbox.hasPending()).isFalse();
    }

    @Test
    void singleElementInSingleElementOutManyTimes()
    {
        for (int i = 0; i < 3 * RevolvingMailbox.SEGMENT_SIZE; i++)
        {
            final TestNode node = new TestNode(0, i);
            mailbox.push(node);
            assertThat(mailbox.hasPending()).isTrue();
            assertThat(mailbox.poll()).isSameAs(node);
            assertThat(mailbox.hasPending()).isFalse();
            assertThat(mailbox.poll()).isNull();
        }
    }

    @Test
    void aPolledNodeCanBePushedAgain()
    {
        final TestNode a = new TestNode(0, 0);
        final TestNode b = new TestNode(0, 1);

        for (int i = 0; i < 10; i++)
        {
            mailbox.push(a);
            mailbox.push(b);
            assertThat(mailbox.poll()).isSameAs(a);
            mailbox.push(a);
            assertThat(mailbox.poll()).isSameAs(b);
            assertThat(mailbox.poll()).isSameAs(a);
            assertThat(mailbox.poll()).isNull();
        }
    }

    @Test
    void hasPendingTracksTheQueue()
    {
        assertThat(mailbox.hasPending()).isFalse();

        mailbox.push(new TestNode(0, 0));
        assertThat(mailbox.hasPending()).isTrue();

        mailbox.push(new TestNode(0, 1));
        assertThat(mailbox.poll()).isNotNull();
        assertThat(mailbox.hasPending()).isTrue();

        assertThat(mailbox.poll()).isNotNull();
        assertThat(mailbox.hasPending()).isFalse();

        assertThat(mailbox.poll()).isNull();
        assertThat(mailbox.hasPending()).isFalse();
    }

    // ---------------------------------------------------------------- activation

    @Test
    void startsIdle()
    {
        assertThat(mailbox.state()).isEqualTo(Mailbox.IDLE);
    }

    @Test
    void onlyTheFirstSchedulerWins()
    {
        assertThat(mailbox.tryMarkScheduled()).isTrue();
        assertThat(mailbox.state()).isEqualTo(Mailbox.SCHEDULED);

        assertThat(mailbox.tryMarkScheduled()).isFalse();
        assertThat(mailbox.state()).isEqualTo(Mailbox.SCHEDULED);
    }

    @Test
    void cannotBeScheduledWhileRunning()
    {
        assertThat(mailbox.tryMarkScheduled()).isTrue();
        mailbox.markRunning();

        assertThat(mailbox.state()).isEqualTo(Mailbox.RUNNING);
        assertThat(mailbox.tryMarkScheduled()).isFalse();
        assertThat(mailbox.state()).isEqualTo(Mailbox.RUNNING);
    }

    @Test
    void fullActivationCycle()
    {
        assertThat(mailbox.tryMarkScheduled()).isTrue();
        mailbox.markRunning();

        mailbox.markRescheduled();
        assertThat(mailbox.state()).isEqualTo(Mailbox.SCHEDULED);
        assertThat(mailbox.tryMarkScheduled()).isFalse();

        mailbox.markRunning();
        assertThat(mailbox.state()).isEqualTo(Mailbox.RUNNING);

        mailbox.markIdle();
        assertThat(mailbox.state()).isEqualTo(Mailbox.IDLE);

        assertThat(mailbox.tryMarkScheduled()).isTrue();
        assertThat(mailbox.state()).isEqualTo(Mailbox.SCHEDULED);
    }

    @Test
    void queueAndActivationAreIndependent()
    {
        mailbox.push(new TestNode(0, 0));
        assertThat(mailbox.state()).isEqualTo(Mailbox.IDLE);

        assertThat(mailbox.tryMarkScheduled()).isTrue();
        mailbox.markRunning();
        assertThat(mailbox.poll()).isNotNull();
        mailbox.markIdle();

        assertThat(mailbox.hasPending()).isFalse();
        assertThat(mailbox.state()).isEqualTo(Mailbox.IDLE);
    }

    @Test
    void aSendDuringARunIsCaughtByTheReCheckAfterIdle()
    {
        assertThat(mailbox.tryMarkScheduled()).isTrue();
        mailbox.markRunning();
        assertThat(mailbox.poll()).isNull();

        // a sender enqueues while the worker runs: it loses the transition and relies on the worker
        mailbox.push(new TestNode(0, 0));
        assertThat(mailbox.tryMarkScheduled()).isFalse();

        mailbox.markIdle();
        assertThat(mailbox.hasPending()).isTrue();
        assertThat(mailbox.tryMarkScheduled()).isTrue();
        mailbox.markRunning();
        assertThat(mailbox.poll()).isNotNull();
        mailbox.markIdle();
        assertThat(mailbox.hasPending()).isFalse();
        assertThat(mailbox.state()).isEqualTo(Mailbox.IDLE);
    }

    // ---------------------------------------------------------------- actors

    @Test
    void aNewMailboxIsVacant()
    {
        assertThat(mailbox.isVacant()).isTrue();
        assertThat(mailbox.actorCount()).isZero();
        assertThat(mailbox.findSlot(1L)).isEqualTo(Mailbox.NO_SLOT);
        assertThat(mailbox.findSlot(0L)).isEqualTo(Mailbox.NO_SLOT);
    }

    @Test
    void occupyInstallsThePrimaryActor()
    {
        final Behavior initial = new Named("initial");

        mailbox.occupy(42L, initial, null);

        assertThat(mailbox.findSlot(42L)).isEqualTo(Mailbox.PRIMARY);
        assertThat(mailbox.behavior(Mailbox.PRIMARY)).isSameAs(initial);
        assertThat(mailbox.localId(Mailbox.PRIMARY)).isEqualTo(42L);
        assertThat(mailbox.isVacant()).isFalse();
        assertThat(mailbox.actorCount()).isEqualTo(1);
    }

    @Test
    void findSlotMissesUnknownIdsAndIdZero()
    {
        mailbox.occupy(42L, new Named("a"), null);

        assertThat(mailbox.findSlot(43L)).isEqualTo(Mailbox.NO_SLOT);
        assertThat(mailbox.findSlot(0L)).isEqualTo(Mailbox.NO_SLOT);
        assertThat(mailbox.findSlot(-42L)).isEqualTo(Mailbox.NO_SLOT);

        mailbox.addActor(100L, new Named("b"), null);

        assertThat(mailbox.findSlot(43L)).isEqualTo(Mailbox.NO_SLOT);
        assertThat(mailbox.findSlot(0L)).isEqualTo(Mailbox.NO_SLOT);
    }

    @Test
    void becomeReplacesThePrimaryBehavior()
    {
        final Behavior next = new Named("next");
        mailbox.occupy(42L, new Named("initial"), null);

        mailbox.become(Mailbox.PRIMARY, next);

        assertThat(mailbox.behavior(Mailbox.PRIMARY)).isSameAs(next);
    }

    @Test
    void selfOfThePrimaryHasTheRightFieldsAndIsCached()
    {
        mailbox.occupy(42L, new Named("a"), null);

        final ActorId self = mailbox.self(Mailbox.PRIMARY, NODE_ID);

        assertThat(self.nodeId()).isEqualTo(NODE_ID);
        assertThat(self.localId()).isEqualTo(42L);
        assertThat(self.hint()).isEqualTo(HINT);
        assertThat(self.poolId()).isEqualTo(POOL);
        assertThat(self).isEqualTo(ActorId.of(NODE_ID, 42L, HINT, POOL));
        assertThat(mailbox.self(Mailbox.PRIMARY, NODE_ID)).isSameAs(self);
    }

    @Test
    void aReoccupiedMailboxHasAFreshSelf()
    {
        mailbox.occupy(42L, new Named("a"), null);
        final ActorId first = mailbox.self(Mailbox.PRIMARY, NODE_ID);
        assertThat(mailbox.remove(Mailbox.PRIMARY)).isTrue();

        mailbox.occupy(77L, new Named("b"), null);

        assertThat(mailbox.findSlot(42L)).isEqualTo(Mailbox.NO_SLOT);
        assertThat(mailbox.findSlot(77L)).isEqualTo(Mailbox.PRIMARY);
        final ActorId second = mailbox.self(Mailbox.PRIMARY, NODE_ID);
        assertThat(second).isNotEqualTo(first).isEqualTo(ActorId.of(NODE_ID, 77L, HINT, POOL));
    }

    @Test
    void extraActorsShareTheMailbox()
    {
        final Behavior primary = new Named("primary");
        final Behavior first = new Named("first");
        final Behavior second = new Named("second");
        mailbox.occupy(42L, primary, null);

        mailbox.addActor(100L, first, null);
        mailbox.addActor(101L, second, null);

        assertThat(mailbox.actorCount()).isEqualTo(3);
        final int slot100 = mailbox.findSlot(100L);
        final int slot101 = mailbox.findSlot(101L);
        assertThat(slot100).isNotNegative();
        assertThat(slot101).isNotNegative().isNotEqualTo(slot100);
        assertThat(mailbox.behavior(slot100)).isSameAs(first);
        assertThat(mailbox.behavior(slot101)).isSameAs(second);
        assertThat(mailbox.behavior(Mailbox.PRIMARY)).isSameAs(primary);
        assertThat(mailbox.localId(slot100)).isEqualTo(100L);
        assertThat(mailbox.localId(slot101)).isEqualTo(101L);

        final Behavior replaced = new Named("replaced");
        mailbox.become(slot101, replaced);
        assertThat(mailbox.behavior(slot101)).isSameAs(replaced);
        assertThat(mailbox.behavior(slot100)).isSameAs(first);
        assertThat(mailbox.behavior(Mailbox.PRIMARY)).isSameAs(primary);
    }

    @Test
    void selfOfAnExtraActorHasTheRightFieldsAndIsCached()
    {
        mailbox.occupy(42L, new Named("a"), null);
        mailbox.addActor(100L, new Named("b"), null);
        final int slot = mailbox.findSlot(100L);

        final ActorId self = mailbox.self(slot, NODE_ID);

        assertThat(self).isEqualTo(ActorId.of(NODE_ID, 100L, HINT, POOL));
        assertThat(mailbox.self(slot, NODE_ID)).isSameAs(self);
        assertThat(mailbox.self(Mailbox.PRIMARY, NODE_ID)).isEqualTo(ActorId.of(NODE_ID, 42L, HINT, POOL));
    }

    @Test
    void extraActorsCanLiveWithoutAPrimary()
    {
        mailbox.addActor(100L, new Named("b"), null);

        assertThat(mailbox.isVacant()).isFalse();
        assertThat(mailbox.actorCount()).isEqualTo(1);
        assertThat(mailbox.findSlot(100L)).isEqualTo(0);
        assertThat(mailbox.remove(0)).isTrue();
        assertThat(mailbox.isVacant()).isTrue();
    }

    @Test
    void removeEveryActorInTurn()
    {
        final Behavior b101 = new Named("101");
        final Behavior b102 = new Named("102");
        mailbox.occupy(42L, new Named("primary"), null);
        mailbox.addActor(100L, new Named("100"), null);
        mailbox.addActor(101L, b101, null);
        mailbox.addActor(102L, b102, null);

        // remove an extra from the middle: the others keep their behaviours and ids
        assertThat(mailbox.remove(mailbox.findSlot(100L))).isFalse();
        assertThat(mailbox.findSlot(100L)).isEqualTo(Mailbox.NO_SLOT);
        assertThat(mailbox.behavior(mailbox.findSlot(101L))).isSameAs(b101);
        assertThat(mailbox.behavior(mailbox.findSlot(102L))).isSameAs(b102);
        assertThat(mailbox.self(mailbox.findSlot(102L), NODE_ID)).isEqualTo(ActorId.of(NODE_ID, 102L, HINT, POOL));
        assertThat(mailbox.actorCount()).isEqualTo(3);

        // remove the primary: the extras stay, so the mailbox is not vacant
        assertThat(mailbox.remove(Mailbox.PRIMARY)).isFalse();
        assertThat(mailbox.findSlot(42L)).isEqualTo(Mailbox.NO_SLOT);
        assertThat(mailbox.isVacant()).isFalse();
        assertThat(mailbox.actorCount()).isEqualTo(2);
        assertThat(mailbox.behavior(Mailbox.PRIMARY)).isNull();

        assertThat(mailbox.remove(mailbox.findSlot(102L))).isFalse();
        assertThat(mailbox.actorCount()).isEqualTo(1);
        assertThat(mailbox.behavior(mailbox.findSlot(101L))).isSameAs(b101);

        assertThat(mailbox.remove(mailbox.findSlot(101L))).isTrue();
        assertThat(mailbox.isVacant()).isTrue();
        assertThat(mailbox.actorCount()).isZero();
        assertThat(mailbox.findSlot(101L)).isEqualTo(Mailbox.NO_SLOT);
    }

    @Test
    void removingThePrimaryAloneVacatesTheMailbox()
    {
        mailbox.occupy(42L, new Named("a"), null);

        assertThat(mailbox.remove(Mailbox.PRIMARY)).isTrue();

        assertThat(mailbox.isVacant()).isTrue();
        assertThat(mailbox.actorCount()).isZero();
        assertThat(mailbox.findSlot(42L)).isEqualTo(Mailbox.NO_SLOT);
        assertThat(mailbox.localId(Mailbox.PRIMARY)).isZero();
    }

    /** A behaviour that does nothing and is told apart from others by name in failure messages. */
    private static final class Named implements Behavior
    {
        private final String name;

        Named(final String name)
        {
            this.name = name;
        }

        @Override
        public void receive(final ActorContext ctx, final Envelope envelope)
        {
        }

        @Override
        public String toString()
        {
            return name;
        }
    }
}
