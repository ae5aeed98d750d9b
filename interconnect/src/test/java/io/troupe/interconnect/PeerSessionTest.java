package io.troupe.interconnect;

import io.troupe.interconnect.seal.FrameSeal;
import io.troupe.serialization.wire.FrameProtection;
import org.agrona.collections.Int2ObjectHashMap;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The peer session state machine, transition by transition, the illegal ones included: no Aeron, no clock. */
class PeerSessionTest
{
    private static final int AERON_SESSION = 0x1234;
    private static final int OTHER_AERON_SESSION = 0x5678;
    private static final long DEADLINE_NS = 5_000L;

    private final RecordingIndex index = new RecordingIndex();
    /** This node initiates with node 2 and accepts node 3's handshakes (the lower id initiates). */
    private final PeerSession initiator = new PeerSession(2, true, index);
    private final PeerSession acceptor = new PeerSession(3, false, index);
    private final byte[] ours = {1, 2, 3};
    private final byte[] theirs = {4, 5, 6};

    @Test
    void aNewPeerIsDisconnectedWithNoAttemptAndNotEstablished()
    {
        assertThat(initiator.state()).isEqualTo(PeerSession.State.DISCONNECTED);
        assertThat(initiator.attempt()).isEqualTo(PeerSession.Attempt.NONE);
        assertThat(initiator.isEstablished()).isFalse();
        assertThat(initiator.isUp()).isFalse();
        assertThat(initiator.sealer()).isNull();
        assertThat(initiator.helloDue(0)).isTrue();
        assertThat(acceptor.helloDue(0)).as("an acceptor never sends a HELLO").isFalse();
    }

    @Test
    void helloSentStartsAnAttemptAndARetryKeepsItsChallenge()
    {
        initiator.helloSent(ours);

        assertThat(initiator.state()).isEqualTo(PeerSession.State.HANDSHAKING);
        assertThat(initiator.attempt()).isEqualTo(PeerSession.Attempt.HELLO_SENT);
        assertThat(initiator.answersOurHello(ours.clone())).isTrue();
        assertThat(initiator.answersOurHello(theirs)).isFalse();
        initiator.helloSent(initiator.ourChallenge());
        assertThat(initiator.ourChallenge()).isSameAs(ours);
        assertThat(initiator.helloDue(0)).as("a HELLO is retried until a WELCOME comes").isTrue();
    }

    @Test
    void helloSentIsIllegalForAnAcceptorWithANewChallengeMidAttemptOrWithASessionUp()
    {
        assertThatThrownBy(() -> acceptor.helloSent(ours)).isInstanceOf(IllegalStateException.class);
        initiator.helloSent(ours);
        assertThatThrownBy(() -> initiator.helloSent(theirs)).isInstanceOf(IllegalStateException.class);
        establishInitiator();
        assertThatThrownBy(() -> initiator.helloSent(ours)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void welcomeReceivedMovesToConfirmSentWithKeysPendingAndBindsTheAttemptsAeronSession()
    {
        initiator.helloSent(ours);
        final FrameSeal.Opener opener = opener(7);

        assertThat(initiator.welcomeReceived(20L, AERON_SESSION, theirs, sealer(8), opener, DEADLINE_NS)).isTrue();

        assertThat(initiator.attempt()).isEqualTo(PeerSession.Attempt.CONFIRM_SENT);
        assertThat(initiator.state()).isEqualTo(PeerSession.State.HANDSHAKING);
        assertThat(initiator.isEstablished()).as("up only once the peer seals with the new keys").isFalse();
        assertThat(index.bound.get(AERON_SESSION)).isSameAs(initiator);
        assertThat(initiator.openerFor(7, AERON_SESSION)).isSameAs(opener);
        assertThat(initiator.isAttemptOpener(opener)).isTrue();
        assertThat(initiator.openerFor(7, OTHER_AERON_SESSION)).isNull();
        assertThat(initiator.openerFor(9, AERON_SESSION)).isNull();
        assertThat(initiator.helloDue(0)).as("no HELLO while the CONFIRM waits for an answer").isFalse();
        assertThat(initiator.attemptExpired(DEADLINE_NS - 1)).isFalse();
        assertThat(initiator.attemptExpired(DEADLINE_NS)).isTrue();
    }

    @Test
    void welcomeReceivedIsRefusedAndCountedWithoutAHelloOrByAnAcceptor()
    {
        assertThat(initiator.welcomeReceived(20L, AERON_SESSION, theirs, sealer(8), opener(7), DEADLINE_NS)).isFalse();
        assertThat(acceptor.welcomeReceived(20L, AERON_SESSION, theirs, sealer(8), opener(7), DEADLINE_NS)).isFalse();

        assertThat(initiator.refusedTransitions()).isEqualTo(1);
        assertThat(acceptor.refusedTransitions()).isEqualTo(1);
        assertThat(initiator.state()).isEqualTo(PeerSession.State.DISCONNECTED);
        assertThat(index.bound).isEmpty();
    }

    @Test
    void theFirstSealedFrameSeenEstablishesTheInitiatorsSessionWithThePendingKeys()
    {
        initiator.helloSent(ours);
        final FrameSeal.Sealer sealer = sealer(8);
        final FrameSeal.Opener opener = opener(7);
        initiator.welcomeReceived(20L, AERON_SESSION, theirs, sealer, opener, DEADLINE_NS);

        assertThat(initiator.firstSealedFrameSeen()).isTrue();

        assertThat(initiator.state()).isEqualTo(PeerSession.State.ESTABLISHED);
        assertThat(initiator.attempt()).isEqualTo(PeerSession.Attempt.NONE);
        assertThat(initiator.isEstablished()).isTrue();
        assertThat(initiator.sessionsUp()).isEqualTo(1);
        assertThat(initiator.incarnation()).isEqualTo(20L);
        assertThat(initiator.sessionId()).isEqualTo(AERON_SESSION);
        assertThat(initiator.sealer()).isSameAs(sealer);
        assertThat(initiator.openerFor(7, AERON_SESSION)).isSameAs(opener);
        assertThat(initiator.isAttemptOpener(opener)).as("the session's opener now, not the attempt's").isFalse();
        assertThat(index.bound.get(AERON_SESSION)).isSameAs(initiator);
        assertThat(initiator.helloDue(Long.MAX_VALUE)).isFalse();
    }

    @Test
    void theFirstSealedFrameSeenIsRefusedBeforeTheConfirmOrByAnAcceptor()
    {
        assertThat(initiator.firstSealedFrameSeen()).isFalse();
        initiator.helloSent(ours);
        assertThat(initiator.firstSealedFrameSeen()).isFalse();
        assertThat(acceptor.firstSealedFrameSeen()).isFalse();

        assertThat(initiator.refusedTransitions()).isEqualTo(2);
        assertThat(initiator.attempt()).isEqualTo(PeerSession.Attempt.HELLO_SENT);
        assertThat(initiator.isEstablished()).isFalse();
    }

    @Test
    void helloAnsweredMovesTheAcceptorToWelcomeSentAndRecognisesARepeatedHello()
    {
        assertThat(acceptor.helloAnswered(30L, AERON_SESSION, theirs, ours, DEADLINE_NS)).isTrue();

        assertThat(acceptor.state()).isEqualTo(PeerSession.State.HANDSHAKING);
        assertThat(acceptor.attempt()).isEqualTo(PeerSession.Attempt.WELCOME_SENT);
        assertThat(acceptor.isRepeatedHello(30L, AERON_SESSION, theirs.clone())).isTrue();
        assertThat(acceptor.isRepeatedHello(31L, AERON_SESSION, theirs)).isFalse();
        assertThat(acceptor.isRepeatedHello(30L, OTHER_AERON_SESSION, theirs)).isFalse();
        assertThat(acceptor.answersOurWelcome(30L, AERON_SESSION, ours.clone())).isTrue();
        assertThat(acceptor.answersOurWelcome(30L, AERON_SESSION, theirs)).isFalse();
        assertThat(acceptor.answersOurWelcome(30L, OTHER_AERON_SESSION, ours)).isFalse();
        assertThat(index.bound).as("nothing sealed comes before the CONFIRM").isEmpty();
    }

    @Test
    void helloAnsweredIsRefusedForAnInitiatorOrWhileAnAttemptIsUnderWay()
    {
        assertThat(initiator.helloAnswered(30L, AERON_SESSION, theirs, ours, DEADLINE_NS)).isFalse();
        acceptor.helloAnswered(30L, AERON_SESSION, theirs, ours, DEADLINE_NS);
        assertThat(acceptor.helloAnswered(31L, AERON_SESSION, theirs, ours, DEADLINE_NS))
            .as("the attempt under way must end first").isFalse();

        assertThat(acceptor.refusedTransitions()).isEqualTo(1);
        assertThat(acceptor.isRepeatedHello(30L, AERON_SESSION, theirs)).isTrue();
    }

    @Test
    void confirmedEstablishesTheAcceptorsSession()
    {
        acceptor.helloAnswered(30L, AERON_SESSION, theirs, ours, DEADLINE_NS);
        final FrameSeal.Sealer sealer = sealer(8);

        assertThat(acceptor.confirmed(sealer, opener(7))).isTrue();

        assertThat(acceptor.state()).isEqualTo(PeerSession.State.ESTABLISHED);
        assertThat(acceptor.isEstablished()).isTrue();
        assertThat(acceptor.incarnation()).isEqualTo(30L);
        assertThat(acceptor.sealer()).isSameAs(sealer);
        assertThat(index.bound.get(AERON_SESSION)).isSameAs(acceptor);
        assertThat(acceptor.isStaleHello(29L)).as("an older incarnation's HELLO is stale now").isTrue();
        assertThat(acceptor.isStaleHello(30L)).isFalse();
    }

    @Test
    void confirmedIsRefusedWithoutAWelcomeOrWhileASessionIsStillUp()
    {
        assertThat(acceptor.confirmed(sealer(8), opener(7))).isFalse();
        establishAcceptor(30L, AERON_SESSION);
        acceptor.helloAnswered(31L, OTHER_AERON_SESSION, theirs, ours, DEADLINE_NS);
        assertThat(acceptor.confirmed(sealer(8), opener(7))).as("the session it replaces must be lost first")
            .isFalse();

        assertThat(acceptor.refusedTransitions()).isEqualTo(2);
        assertThat(acceptor.incarnation()).isEqualTo(30L);
    }

    @Test
    void anAttemptBesideASessionReplacesItOnlyOnceTheOldOneIsLost()
    {
        establishAcceptor(30L, AERON_SESSION);
        acceptor.helloAnswered(31L, OTHER_AERON_SESSION, theirs, ours, DEADLINE_NS);
        assertThat(acceptor.state()).as("the session stays while the attempt runs").isEqualTo(
            PeerSession.State.ESTABLISHED);
        assertThat(acceptor.attempt()).isEqualTo(PeerSession.Attempt.WELCOME_SENT);

        assertThat(acceptor.sessionLost("node restarted")).isTrue();
        assertThat(acceptor.state()).isEqualTo(PeerSession.State.HANDSHAKING);
        assertThat(acceptor.confirmed(sealer(8), opener(7))).isTrue();

        assertThat(acceptor.incarnation()).isEqualTo(31L);
        assertThat(acceptor.sessionId()).isEqualTo(OTHER_AERON_SESSION);
        assertThat(acceptor.sessionsUp()).isEqualTo(2);
        assertThat(acceptor.sessionsDown()).isEqualTo(1);
        assertThat(index.bound).containsOnlyKeys(OTHER_AERON_SESSION);
    }

    @Test
    void sessionLostTurnsTheFlagDownDropsTheKeysAndUnbindsTheSession()
    {
        establishInitiator();

        assertThat(initiator.sessionLost("goodbye")).isTrue();

        assertThat(initiator.state()).isEqualTo(PeerSession.State.DISCONNECTED);
        assertThat(initiator.isEstablished()).isFalse();
        assertThat(initiator.sessionsDown()).isEqualTo(1);
        assertThat(initiator.sealer()).isNull();
        assertThat(initiator.openerFor(7, AERON_SESSION)).isNull();
        assertThat(initiator.sessionId()).isZero();
        assertThat(initiator.lastLoss()).isEqualTo("goodbye");
        assertThat(initiator.incarnation()).as("the last session's, for counters").isEqualTo(20L);
        assertThat(index.bound).isEmpty();
        initiator.retryHelloAt(100L);
        assertThat(initiator.helloDue(99L)).isFalse();
        assertThat(initiator.helloDue(100L)).isTrue();
    }

    @Test
    void sessionLostIsRefusedWithNoSessionUp()
    {
        assertThat(acceptor.sessionLost("nothing up")).isFalse();
        acceptor.helloAnswered(30L, AERON_SESSION, theirs, ours, DEADLINE_NS);
        assertThat(acceptor.sessionLost("still nothing up")).isFalse();

        assertThat(acceptor.refusedTransitions()).isEqualTo(2);
        assertThat(acceptor.sessionsDown()).isZero();
        assertThat(acceptor.attempt()).as("the attempt is untouched").isEqualTo(PeerSession.Attempt.WELCOME_SENT);
    }

    @Test
    void attemptEndedDropsTheAttemptAndItsBindingButNotTheSession()
    {
        initiator.helloSent(ours);
        initiator.welcomeReceived(20L, AERON_SESSION, theirs, sealer(8), opener(7), DEADLINE_NS);

        assertThat(initiator.attemptEnded()).isTrue();

        assertThat(initiator.state()).isEqualTo(PeerSession.State.DISCONNECTED);
        assertThat(initiator.openerFor(7, AERON_SESSION)).isNull();
        assertThat(index.bound).isEmpty();
        assertThat(initiator.attemptEnded()).as("no attempt: nothing to end, nothing refused").isTrue();
        assertThat(initiator.refusedTransitions()).isZero();

        establishAcceptor(30L, AERON_SESSION);
        acceptor.helloAnswered(31L, OTHER_AERON_SESSION, theirs, ours, DEADLINE_NS);
        acceptor.attemptEnded();
        assertThat(acceptor.state()).isEqualTo(PeerSession.State.ESTABLISHED);
        assertThat(acceptor.isEstablished()).isTrue();
        assertThat(index.bound.get(AERON_SESSION)).isSameAs(acceptor);
    }

    @Test
    void peerRemovedIsFinalAndEndsTheAttemptUnderWay()
    {
        initiator.helloSent(ours);
        initiator.welcomeReceived(20L, AERON_SESSION, theirs, sealer(8), opener(7), DEADLINE_NS);

        initiator.peerRemoved();

        assertThat(initiator.state()).isEqualTo(PeerSession.State.REMOVED);
        assertThat(initiator.isRemoved()).isTrue();
        assertThat(index.bound).isEmpty();
        assertThat(initiator.helloDue(Long.MAX_VALUE)).as("no retries").isFalse();
        assertThatThrownBy(() -> initiator.helloSent(ours)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> initiator.retryHelloAt(0)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(initiator::peerRemoved).isInstanceOf(IllegalStateException.class);
        assertThat(initiator.attemptEnded()).isFalse();
        assertThat(initiator.welcomeReceived(20L, AERON_SESSION, theirs, sealer(8), opener(7), DEADLINE_NS))
            .isFalse();
        assertThat(initiator.firstSealedFrameSeen()).isFalse();
        assertThat(initiator.sessionLost("gone")).isFalse();
        assertThat(initiator.refusedTransitions()).isEqualTo(4);
        assertThat(initiator.state()).isEqualTo(PeerSession.State.REMOVED);
    }

    @Test
    void peerRemovedIsIllegalWhileASessionIsUp()
    {
        establishAcceptor(30L, AERON_SESSION);

        assertThatThrownBy(acceptor::peerRemoved).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("ESTABLISHED");
        assertThat(acceptor.helloAnswered(31L, OTHER_AERON_SESSION, theirs, ours, DEADLINE_NS)).isTrue();
        acceptor.sessionLost("removed");
        acceptor.peerRemoved();

        assertThat(acceptor.state()).isEqualTo(PeerSession.State.REMOVED);
        assertThat(acceptor.helloAnswered(32L, AERON_SESSION, theirs, ours, DEADLINE_NS)).isFalse();
        assertThat(acceptor.confirmed(sealer(8), opener(7))).isFalse();
        assertThat(index.bound).isEmpty();
    }

    private void establishInitiator()
    {
        initiator.helloSent(ours);
        initiator.welcomeReceived(20L, AERON_SESSION, theirs, sealer(8), opener(7), DEADLINE_NS);
        assertThat(initiator.firstSealedFrameSeen()).isTrue();
    }

    private void establishAcceptor(final long incarnation, final int aeronSession)
    {
        acceptor.helloAnswered(incarnation, aeronSession, theirs, ours, DEADLINE_NS);
        assertThat(acceptor.confirmed(sealer(8), opener(7))).isTrue();
    }

    private static FrameSeal.Sealer sealer(final int keyId)
    {
        return new FrameSeal.Sealer(FrameProtection.AUTHENTICATED, new byte[32], keyId);
    }

    private static FrameSeal.Opener opener(final int keyId)
    {
        return new FrameSeal.Opener(FrameProtection.AUTHENTICATED, new byte[32], keyId);
    }

    /** Records which Aeron session ids are bound to which peer. */
    static final class RecordingIndex implements PeerSession.Index
    {
        final Int2ObjectHashMap<PeerSession> bound = new Int2ObjectHashMap<>();

        @Override
        public void bind(final int aeronSessionId, final PeerSession session)
        {
            bound.put(aeronSessionId, session);
        }

        @Override
        public void unbind(final int aeronSessionId)
        {
            bound.remove(aeronSessionId);
        }
    }
}
