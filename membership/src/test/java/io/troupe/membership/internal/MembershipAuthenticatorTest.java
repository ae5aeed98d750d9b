package io.troupe.membership.internal;

import io.aeron.security.SessionProxy;
import io.troupe.membership.internal.VoterCounts.Figure;
import io.troupe.membership.table.VoterAddress;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The voters' authenticator, driven as Aeron Cluster drives it, with sessions that record what they were told. */
class MembershipAuthenticatorTest
{
    private final MembershipProof proof = new MembershipProof(MembershipHarness.SECRET, MembershipHarness.CLUSTER,
        MembershipHarness.VOTERS_DIGEST);
    private final VoterCounts counts = new VoterCounts();
    private final MembershipAuthenticator authenticator = new MembershipAuthenticator(proof, counts,
        Figure.SESSIONS_ADMITTED, Figure.SESSIONS_REJECTED);

    /** A session as Aeron Cluster hands it to the authenticator. */
    private static final class Session implements SessionProxy
    {
        private final long id;
        byte[] challenge;
        boolean authenticated;
        boolean rejected;

        Session(final long id)
        {
            this.id = id;
        }

        @Override
        public long sessionId()
        {
            return id;
        }

        @Override
        public boolean challenge(final byte[] encodedChallenge)
        {
            challenge = encodedChallenge;
            return true;
        }

        @Override
        public boolean authenticate(final byte[] encodedPrincipal)
        {
            authenticated = true;
            return true;
        }

        @Override
        public void reject()
        {
            rejected = true;
        }
    }

    private Session connect(final long id, final byte[] credentials, final long nowMs)
    {
        final Session session = new Session(id);
        authenticator.onConnectRequest(id, credentials, nowMs);
        authenticator.onConnectedSession(session, nowMs);
        return session;
    }

    @Test
    void aNodeThatAnswersItsFreshChallengeWithTheSecretIsAdmitted()
    {
        final Session session = connect(1, proof.credentials(5, 9), 0);
        assertThat(session.challenge).hasSize(32);
        authenticator.onChallengeResponse(1, proof.prove(5, 9, session.challenge), 10);
        authenticator.onChallengedSession(session, 10);
        assertThat(session.authenticated).isTrue();
        assertThat(counts.get(Figure.SESSIONS_ADMITTED)).isEqualTo(1);
    }

    @Test
    void aWrongSecretAnotherIdentityOrAReplayedAnswerIsRejected()
    {
        final MembershipProof other = new MembershipProof("another-secret-of-enough-length!!".getBytes(
            StandardCharsets.US_ASCII), MembershipHarness.CLUSTER, MembershipHarness.VOTERS_DIGEST);
        final Session wrongSecret = connect(1, proof.credentials(5, 9), 0);
        authenticator.onChallengeResponse(1, other.prove(5, 9, wrongSecret.challenge), 1);
        authenticator.onChallengedSession(wrongSecret, 1);

        final Session otherIdentity = connect(2, proof.credentials(5, 9), 0);
        authenticator.onChallengeResponse(2, proof.prove(6, 9, otherIdentity.challenge), 1);
        authenticator.onChallengedSession(otherIdentity, 1);

        final Session first = connect(3, proof.credentials(5, 9), 0);
        final byte[] answer = proof.prove(5, 9, first.challenge);
        final Session replay = connect(4, proof.credentials(5, 9), 0); // a fresh challenge: the old answer fails
        authenticator.onChallengeResponse(4, answer, 1);
        authenticator.onChallengedSession(replay, 1);

        assertThat(wrongSecret.rejected).isTrue();
        assertThat(otherIdentity.rejected).isTrue();
        assertThat(replay.rejected).isTrue();
        assertThat(counts.get(Figure.SESSIONS_ADMITTED)).isZero();
        assertThat(counts.get(Figure.SESSIONS_REJECTED)).isEqualTo(3);
    }

    @Test
    void aNodeWithTheSecretButAnotherVoterListIsRejectedAndCountedAsSuch()
    {
        final MembershipProof otherVoters = new MembershipProof(MembershipHarness.SECRET, MembershipHarness.CLUSTER,
            MembershipProof.votersDigest(List.of(new VoterAddress(1, "a", 40200), new VoterAddress(2, "b", 40200),
                new VoterAddress(3, "c", 40200))));
        final Session session = connect(1, otherVoters.credentials(5, 9), 0);
        authenticator.onChallengeResponse(1, otherVoters.prove(5, 9, session.challenge), 1);
        authenticator.onChallengedSession(session, 1);
        assertThat(session.rejected).isTrue();
        assertThat(session.authenticated).isFalse();
        assertThat(counts.get(Figure.VOTER_LISTS_DIFFER)).isEqualTo(1);
        assertThat(counts.get(Figure.SESSIONS_REJECTED)).isEqualTo(1);

        final List<VoterAddress> three = List.of(new VoterAddress(1, "a", 40200), new VoterAddress(2, "b", 40200),
            new VoterAddress(3, "c", 40200));
        assertThat(MembershipProof.votersDigest(three)).as("the same list, the same digest")
            .isEqualTo(MembershipProof.votersDigest(List.copyOf(three)))
            .isNotEqualTo(MembershipProof.votersDigest(List.of(three.get(1), three.get(0), three.get(2))))
            .isNotEqualTo(MembershipProof.votersDigest(List.of(three.get(0), three.get(1),
                new VoterAddress(3, "c", 40205))));
    }

    @Test
    void malformedCredentialsOrAnotherClusterAreRejectedWithoutAChallenge()
    {
        final Session empty = connect(1, new byte[0], 0);
        final Session garbage = connect(2, new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
            19, 20}, 0);
        final Session otherCluster = connect(3, new MembershipProof(MembershipHarness.SECRET, "other",
            MembershipHarness.VOTERS_DIGEST)
            .credentials(5, 9), 0);
        for (final Session session : new Session[] {empty, garbage, otherCluster})
        {
            assertThat(session.rejected).isTrue();
            assertThat(session.challenge).isNull();
        }
    }

    @Test
    void aSessionThatDoesNotAnswerInTimeIsRejectedAndWaitingSessionsAreBounded()
    {
        final Session slow = connect(1, proof.credentials(5, 9), 0);
        authenticator.onChallengedSession(slow, MembershipAuthenticator.PENDING_LIMIT_MS + 1);
        assertThat(slow.rejected).isTrue();

        for (int i = 0; i < MembershipAuthenticator.MAX_PENDING; i++)
        {
            connect(100 + i, proof.credentials(5, 9), 10);
        }
        final Session beyond = connect(10_000, proof.credentials(5, 9), 10);
        assertThat(beyond.rejected).isTrue();
        final long afterTheLimit = 10 + MembershipAuthenticator.PENDING_LIMIT_MS + 1;
        final Session later = connect(10_001, proof.credentials(5, 9), afterTheLimit);
        assertThat(later.challenge).as("the waiting ones are forgotten after the limit").isNotNull();
    }
}
