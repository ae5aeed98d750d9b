package io.troupe.interconnect.seal;

import io.troupe.interconnect.InterconnectConfig;

import io.troupe.serialization.wire.FrameProtection;
import io.troupe.serialization.wire.HandshakePhase;
import org.junit.jupiter.api.Test;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

import static io.troupe.serialization.wire.HandshakePhase.CONFIRM;
import static io.troupe.serialization.wire.HandshakePhase.WELCOME;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HandshakeAuthTest
{
    private static final byte[] SECRET = "0123456789abcdef-cluster-secret".getBytes(StandardCharsets.US_ASCII);
    private static final String CLUSTER = "prod-eu";
    private static final int A = 3;
    private static final long INC_A = 0x1111_2222_3333_4444L;
    private static final int B = 7;
    private static final long INC_B = 0x5555_6666_7777_8888L;

    private final HandshakeAuth alice = new HandshakeAuth(SECRET, new SplittableRandom(1));
    private final HandshakeAuth bob = new HandshakeAuth(SECRET, new SplittableRandom(2));

    @Test
    void theWholeHandshakeVerifiesOnBothSides()
    {
        final byte[] challengeA = alice.newChallenge();
        final byte[] welcomeProof = bob.prove(WELCOME, CLUSTER, B, INC_B, A, INC_A, challengeA);
        assertThat(alice.verify(WELCOME, CLUSTER, B, INC_B, A, INC_A, challengeA, welcomeProof)).isTrue();

        final byte[] challengeB = bob.newChallenge();
        final byte[] confirmProof = alice.prove(CONFIRM, CLUSTER, A, INC_A, B, INC_B, challengeB);
        assertThat(bob.verify(CONFIRM, CLUSTER, A, INC_A, B, INC_B, challengeB, confirmProof)).isTrue();

        assertThat(welcomeProof).hasSize(HandshakeAuth.PROOF_BYTES);
        assertThat(confirmProof).hasSize(HandshakeAuth.PROOF_BYTES);
    }

    @Test
    void theTypeTableIsBoundToTheProofAndAnEmptyOneAddsNothing()
    {
        final byte[] challenge = alice.newChallenge();
        final byte[] types = {1, 2, 3, 4, 5, 6, 7, 8};
        final byte[] proof = bob.prove(WELCOME, CLUSTER, B, INC_B, A, INC_A, challenge, types);

        assertThat(alice.verify(WELCOME, CLUSTER, B, INC_B, A, INC_A, challenge, types, proof)).isTrue();
        final byte[] tampered = types.clone();
        tampered[7] ^= 1;
        assertThat(alice.verify(WELCOME, CLUSTER, B, INC_B, A, INC_A, challenge, tampered, proof)).isFalse();
        assertThat(alice.verify(WELCOME, CLUSTER, B, INC_B, A, INC_A, challenge, new byte[0], proof))
            .as("a table stripped on the way").isFalse();
        assertThat(alice.verify(WELCOME, CLUSTER, B, INC_B, A, INC_A, challenge, null, proof)).isFalse();
        // a node that sends no table (schema version 2) proves exactly as before
        assertThat(bob.prove(WELCOME, CLUSTER, B, INC_B, A, INC_A, challenge, new byte[0]))
            .isEqualTo(bob.prove(WELCOME, CLUSTER, B, INC_B, A, INC_A, challenge));
    }

    @Test
    void theMacInstanceIsReusedWithoutCarryingStateBetweenProofs()
    {
        final byte[] challenge = alice.newChallenge();
        final byte[] first = bob.prove(WELCOME, CLUSTER, B, INC_B, A, INC_A, challenge);

        assertThat(alice.verify(WELCOME, "other", B, INC_B, A, INC_A, challenge, first)).isFalse();
        assertThat(alice.verify(WELCOME, CLUSTER, B, INC_B, A, INC_A, challenge, new byte[1])).isFalse();
        bob.prove(CONFIRM, "x", 1, 2, 3, 4, new byte[] {9});

        assertThat(bob.prove(WELCOME, CLUSTER, B, INC_B, A, INC_A, challenge)).isEqualTo(first);
        assertThat(alice.verify(WELCOME, CLUSTER, B, INC_B, A, INC_A, challenge, first)).isTrue();
        assertThat(alice.verify(WELCOME, CLUSTER, B, INC_B, A, INC_A, challenge, first)).isTrue();
    }

    @Test
    void theProofIsHmacSha256OverTheDocumentedLayout() throws Exception
    {
        final byte[] challenge = {1, 2, 3, 4, 5};
        final ByteBuffer input = ByteBuffer.allocate(256); // big-endian
        putBytes(input, "troupe-handshake-v1".getBytes(StandardCharsets.US_ASCII));
        putBytes(input, "WELCOME".getBytes(StandardCharsets.US_ASCII));
        putBytes(input, "cl\u00fcster".getBytes(StandardCharsets.UTF_8));
        input.putInt(B).putLong(INC_B).putInt(A).putLong(INC_A);
        putBytes(input, challenge);
        final Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET, "HmacSHA256"));
        mac.update(input.array(), 0, input.position());

        assertThat(bob.prove(WELCOME, "cl\u00fcster", B, INC_B, A, INC_A, challenge)).isEqualTo(mac.doFinal());
    }

    @Test
    void aProofMadeWithAnotherSecretFails()
    {
        final byte[] otherSecret = SECRET.clone();
        otherSecret[0] ^= 1;
        final HandshakeAuth impostor = new HandshakeAuth(otherSecret, new SplittableRandom(3));
        final byte[] challenge = alice.newChallenge();

        final byte[] proof = impostor.prove(WELCOME, CLUSTER, B, INC_B, A, INC_A, challenge);

        assertThat(alice.verify(WELCOME, CLUSTER, B, INC_B, A, INC_A, challenge, proof)).isFalse();
    }

    @Test
    void anyOtherInputFails()
    {
        final byte[] challenge = alice.newChallenge();
        final byte[] proof = bob.prove(WELCOME, CLUSTER, B, INC_B, A, INC_A, challenge);
        final byte[] otherChallenge = challenge.clone();
        otherChallenge[HandshakeAuth.CHALLENGE_BYTES - 1] ^= 0x40;

        assertThat(alice.verify(WELCOME, "prod-us", B, INC_B, A, INC_A, challenge, proof)).as("cluster id").isFalse();
        assertThat(alice.verify(WELCOME, "", B, INC_B, A, INC_A, challenge, proof)).as("empty cluster id").isFalse();
        assertThat(alice.verify(WELCOME, CLUSTER, A, INC_B, B, INC_A, challenge, proof)).as("node ids swapped")
            .isFalse();
        assertThat(alice.verify(WELCOME, CLUSTER, A, INC_A, B, INC_B, challenge, proof)).as("identities swapped")
            .isFalse();
        assertThat(alice.verify(WELCOME, CLUSTER, B + 1, INC_B, A, INC_A, challenge, proof)).as("prover id")
            .isFalse();
        assertThat(alice.verify(WELCOME, CLUSTER, B, INC_B, A + 1, INC_A, challenge, proof)).as("verifier id")
            .isFalse();
        assertThat(alice.verify(WELCOME, CLUSTER, B, INC_B + 1, A, INC_A, challenge, proof))
            .as("prover incarnation").isFalse();
        assertThat(alice.verify(WELCOME, CLUSTER, B, INC_B, A, INC_A + 1, challenge, proof))
            .as("verifier incarnation (an answer to an earlier life of this node)").isFalse();
        assertThat(alice.verify(WELCOME, CLUSTER, B, INC_B, A, INC_A, otherChallenge, proof)).as("challenge")
            .isFalse();
        assertThat(alice.verify(WELCOME, CLUSTER, B, INC_B, A, INC_A, Arrays.copyOf(challenge, 31), proof))
            .as("shorter challenge").isFalse();
        assertThat(alice.verify(CONFIRM, CLUSTER, B, INC_B, A, INC_A, challenge, proof)).as("phase").isFalse();

        assertThat(alice.verify(WELCOME, CLUSTER, B, INC_B, A, INC_A, challenge, proof)).isTrue();
    }

    @Test
    void aProofCannotBeReflectedBackAtItsMaker()
    {
        // B proves cA to A; an attacker posing as A to B replays B's own proof as if A had proved cA
        final byte[] challenge = bob.newChallenge();
        final byte[] bobsProof = bob.prove(WELCOME, CLUSTER, B, INC_B, A, INC_A, challenge);

        assertThat(bob.verify(WELCOME, CLUSTER, A, INC_A, B, INC_B, challenge, bobsProof)).isFalse();
        assertThat(bob.verify(CONFIRM, CLUSTER, A, INC_A, B, INC_B, challenge, bobsProof)).isFalse();
    }

    @Test
    void aDamagedProofFails()
    {
        final byte[] challenge = alice.newChallenge();
        final byte[] proof = bob.prove(WELCOME, CLUSTER, B, INC_B, A, INC_A, challenge);

        assertThat(alice.verify(WELCOME, CLUSTER, B, INC_B, A, INC_A, challenge, null)).as("null").isFalse();
        assertThat(alice.verify(WELCOME, CLUSTER, B, INC_B, A, INC_A, challenge, new byte[0])).as("empty").isFalse();
        assertThat(alice.verify(WELCOME, CLUSTER, B, INC_B, A, INC_A, challenge, Arrays.copyOf(proof, 31)))
            .as("truncated").isFalse();
        assertThat(alice.verify(WELCOME, CLUSTER, B, INC_B, A, INC_A, challenge, Arrays.copyOf(proof, 33)))
            .as("extended").isFalse();
        assertThat(alice.verify(WELCOME, CLUSTER, B, INC_B, A, INC_A, challenge, new byte[32])).as("zeros")
            .isFalse();
        for (int i = 0; i < proof.length; i++)
        {
            final byte[] flipped = proof.clone();
            flipped[i] ^= 1;
            assertThat(alice.verify(WELCOME, CLUSTER, B, INC_B, A, INC_A, challenge, flipped)).as("byte %d", i)
                .isFalse();
        }
    }

    @Test
    void inputsFromTheWireNeverThrowInVerify()
    {
        final byte[] challenge = alice.newChallenge();
        final byte[] proof = bob.prove(WELCOME, CLUSTER, B, INC_B, A, INC_A, challenge);

        assertThat(alice.verify(WELCOME, null, B, INC_B, A, INC_A, challenge, proof)).isFalse();
        assertThat(alice.verify(WELCOME, CLUSTER, B, INC_B, A, INC_A, null, proof)).isFalse();
        assertThat(alice.verify(WELCOME, CLUSTER, B, INC_B, A, INC_A, new byte[0], proof)).isFalse();
        assertThat(alice.verify(null, CLUSTER, B, INC_B, A, INC_A, challenge, proof)).isFalse();
        for (final HandshakePhase phase : new HandshakePhase[] {HandshakePhase.HELLO, HandshakePhase.REFUSE,
            HandshakePhase.UNKNOWN})
        {
            assertThat(alice.verify(phase, CLUSTER, B, INC_B, A, INC_A, challenge, proof)).as("%s", phase).isFalse();
        }
    }

    @Test
    void onlyHelloWelcomeAndConfirmCarryAProof()
    {
        final byte[] challenge = alice.newChallenge();
        for (final HandshakePhase phase : new HandshakePhase[] {HandshakePhase.REFUSE, HandshakePhase.UNKNOWN, null})
        {
            assertThatThrownBy(() -> bob.prove(phase, CLUSTER, B, INC_B, A, INC_A, challenge))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("HELLO, WELCOME and CONFIRM");
        }
        assertThatThrownBy(() -> bob.prove(WELCOME, null, B, INC_B, A, INC_A, challenge))
            .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> bob.prove(WELCOME, CLUSTER, B, INC_B, A, INC_A, null))
            .isInstanceOf(NullPointerException.class);
    }

    @Test
    void lengthPrefixesKeepTuplesThatWouldConcatenateAlikeApart()
    {
        // without length prefixes, moving a byte from the end of the cluster id into the fixed-width fields,
        // and the last byte of those into the challenge, gives the same bytes
        final byte[] challenge = {10, 20, 30};
        final byte[] shiftedChallenge = {4, 10, 20, 30};
        final long shiftedProverIncarnation = 0x0100_0000_0000_0000L;
        final long shiftedVerifierIncarnation = 0x0300_0000_0000_0000L;
        assertThat(naiveConcatenation("ab", 1, 2L, 3, 4L, challenge))
            .as("the two tuples collide without length prefixes")
            .isEqualTo(naiveConcatenation("a", 0x6200_0000, shiftedProverIncarnation, 0x0200_0000,
                shiftedVerifierIncarnation, shiftedChallenge));

        final byte[] proof = bob.prove(WELCOME, "ab", 1, 2L, 3, 4L, challenge);
        final byte[] shifted = bob.prove(WELCOME, "a", 0x6200_0000, shiftedProverIncarnation, 0x0200_0000,
            shiftedVerifierIncarnation, shiftedChallenge);

        assertThat(shifted).isNotEqualTo(proof);
        assertThat(alice.verify(WELCOME, "a", 0x6200_0000, shiftedProverIncarnation, 0x0200_0000,
            shiftedVerifierIncarnation, shiftedChallenge, proof)).isFalse();
    }

    @Test
    void aClusterIdCannotBorrowBytesFromTheChallengeOrThePhase()
    {
        final byte[] proof = bob.prove(WELCOME, "ab", B, INC_B, A, INC_A, new byte[] {1, 2});

        assertThat(bob.prove(WELCOME, "ab", B, INC_B, A, INC_A, new byte[] {1, 2, 0})).isNotEqualTo(proof);
        assertThat(bob.prove(WELCOME, "ab\u0000", B, INC_B, A, INC_A, new byte[] {1, 2})).isNotEqualTo(proof);
        assertThat(bob.prove(CONFIRM, "ab", B, INC_B, A, INC_A, new byte[] {1, 2})).isNotEqualTo(proof);
    }

    @Test
    void challengesAre32FreshBytes()
    {
        final HandshakeAuth secureAuth = new HandshakeAuth(SECRET);
        final Set<String> seen = new HashSet<>();
        for (int i = 0; i < 100; i++)
        {
            final byte[] challenge = secureAuth.newChallenge();
            assertThat(challenge).hasSize(HandshakeAuth.CHALLENGE_BYTES).hasSize(32);
            assertThat(seen.add(Arrays.toString(challenge))).as("challenge %d is new", i).isTrue();
        }
        assertThat(alice.newChallenge()).isNotEqualTo(alice.newChallenge());
    }

    @Test
    void aSeededSourceGivesRepeatableChallenges()
    {
        final HandshakeAuth first = new HandshakeAuth(SECRET, new SplittableRandom(42));
        final HandshakeAuth second = new HandshakeAuth(SECRET, new SplittableRandom(42));

        assertThat(first.newChallenge()).isEqualTo(second.newChallenge());
    }

    @Test
    void theSecretMustHaveTheMinimumLengthAndIsCopied()
    {
        assertThatThrownBy(() -> new HandshakeAuth(new byte[InterconnectConfig.MIN_SECRET_BYTES - 1]))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("at least " + InterconnectConfig.MIN_SECRET_BYTES + " bytes");
        assertThatThrownBy(() -> new HandshakeAuth(null))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("at least 16 bytes");

        final byte[] secret = new byte[InterconnectConfig.MIN_SECRET_BYTES];
        Arrays.fill(secret, (byte)7);
        final HandshakeAuth auth = new HandshakeAuth(secret, new SplittableRandom(5));
        final byte[] challenge = auth.newChallenge();
        final byte[] proof = auth.prove(CONFIRM, CLUSTER, A, INC_A, B, INC_B, challenge);
        Arrays.fill(secret, (byte)0);

        assertThat(auth.prove(CONFIRM, CLUSTER, A, INC_A, B, INC_B, challenge)).isEqualTo(proof);
        assertThat(new HandshakeAuth(secret).verify(CONFIRM, CLUSTER, A, INC_A, B, INC_B, challenge, proof)).isFalse();
    }

    @Test
    void aClientProofNeverPassesForANodeProofOrTheReverse()
    {
        final HandshakeAuth nodes = new HandshakeAuth(SECRET, new SplittableRandom(5));
        final HandshakeAuth clients = new HandshakeAuth(SECRET, HandshakeAuth.CLIENT_DOMAIN);
        final byte[] challenge = nodes.newChallenge();

        final byte[] nodeProof = nodes.prove(CONFIRM, CLUSTER, A, INC_A, B, INC_B, challenge);
        final byte[] clientProof = clients.prove(CONFIRM, CLUSTER, A, INC_A, B, INC_B, challenge);

        assertThat(clientProof).isNotEqualTo(nodeProof);
        assertThat(clients.verify(CONFIRM, CLUSTER, A, INC_A, B, INC_B, challenge, clientProof)).isTrue();
        assertThat(clients.verify(CONFIRM, CLUSTER, A, INC_A, B, INC_B, challenge, nodeProof)).isFalse();
        assertThat(nodes.verify(CONFIRM, CLUSTER, A, INC_A, B, INC_B, challenge, clientProof)).isFalse();
    }

    @Test
    void negotiationPicksTheHighestCommonVersion()
    {
        assertThat(HandshakeAuth.negotiateVersion(1, 1, 1, 1)).isEqualTo(1);
        assertThat(HandshakeAuth.negotiateVersion(1, 3, 1, 3)).isEqualTo(3);
        assertThat(HandshakeAuth.negotiateVersion(1, 3, 2, 5)).as("they are newer").isEqualTo(3);
        assertThat(HandshakeAuth.negotiateVersion(2, 5, 1, 3)).as("they are older").isEqualTo(3);
        assertThat(HandshakeAuth.negotiateVersion(1, 5, 2, 3)).as("theirs inside ours").isEqualTo(3);
        assertThat(HandshakeAuth.negotiateVersion(2, 3, 1, 5)).as("ours inside theirs").isEqualTo(3);
        assertThat(HandshakeAuth.negotiateVersion(1, 3, 3, 4)).as("touching").isEqualTo(3);
        assertThat(HandshakeAuth.negotiateVersion(0, 0, 0, 7)).isZero();
        assertThat(HandshakeAuth.negotiateVersion(
            InterconnectConfig.MIN_PROTOCOL_VERSION, InterconnectConfig.PROTOCOL_VERSION,
            InterconnectConfig.MIN_PROTOCOL_VERSION, InterconnectConfig.PROTOCOL_VERSION))
            .isEqualTo(InterconnectConfig.PROTOCOL_VERSION);
        assertThat(HandshakeAuth.negotiateVersion(1, Integer.MAX_VALUE, 5, Integer.MAX_VALUE))
            .isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void negotiationFailsForDisjointEmptyOrNegativeRanges()
    {
        assertThat(HandshakeAuth.negotiateVersion(1, 2, 3, 4)).as("they are too new").isEqualTo(-1);
        assertThat(HandshakeAuth.negotiateVersion(3, 4, 1, 2)).as("they are too old").isEqualTo(-1);
        assertThat(HandshakeAuth.negotiateVersion(1, 5, 4, 3)).as("their range is empty").isEqualTo(-1);
        assertThat(HandshakeAuth.negotiateVersion(5, 1, 1, 5)).as("our range is empty").isEqualTo(-1);
        assertThat(HandshakeAuth.negotiateVersion(1, 5, -3, 2)).as("negative").isEqualTo(-1);
        assertThat(HandshakeAuth.negotiateVersion(-5, -1, -5, -1)).as("all negative").isEqualTo(-1);
        assertThat(HandshakeAuth.negotiateVersion(1, 5, Integer.MIN_VALUE, Integer.MAX_VALUE)).isEqualTo(-1);
    }

    private static void putBytes(final ByteBuffer buffer, final byte[] bytes)
    {
        buffer.putInt(bytes.length).put(bytes);
    }

    private static byte[] naiveConcatenation(
        final String clusterId,
        final int proverNodeId,
        final long proverIncarnation,
        final int verifierNodeId,
        final long verifierIncarnation,
        final byte[] challenge)
    {
        final ByteBuffer numbers = ByteBuffer.allocate(24)
            .putInt(proverNodeId).putLong(proverIncarnation).putInt(verifierNodeId).putLong(verifierIncarnation);
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("troupe-handshake-v1WELCOME".getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(clusterId.getBytes(StandardCharsets.UTF_8));
        out.writeBytes(numbers.array());
        out.writeBytes(challenge);
        return out.toByteArray();
    }

    @Test
    void aHelloProvesTheSecretOverItsOwnChallengeAndTheProtectionIsBoundToEveryProof()
    {
        final byte[] challenge = alice.newChallenge();
        final byte[] hello = alice.prove(HandshakePhase.HELLO, CLUSTER, A, INC_A, B, 0L, challenge, new byte[0],
            FrameProtection.AUTHENTICATED);
        assertThat(bob.verify(HandshakePhase.HELLO, CLUSTER, A, INC_A, B, 0L, challenge, new byte[0],
            FrameProtection.AUTHENTICATED, hello)).isTrue();
        // not as another phase, not with the other protection (no downgrade on the way), not without one
        assertThat(bob.verify(WELCOME, CLUSTER, A, INC_A, B, 0L, challenge, new byte[0], FrameProtection.AUTHENTICATED,
            hello)).isFalse();
        assertThat(bob.verify(HandshakePhase.HELLO, CLUSTER, A, INC_A, B, 0L, challenge, new byte[0],
            FrameProtection.ENCRYPTED, hello)).isFalse();
        assertThat(bob.verify(HandshakePhase.HELLO, CLUSTER, A, INC_A, B, 0L, challenge, new byte[0], hello)).isFalse();
        // a node with another secret cannot make one
        final HandshakeAuth mallory = new HandshakeAuth("another-secret-of-16+".getBytes(StandardCharsets.UTF_8));
        assertThat(bob.verify(HandshakePhase.HELLO, CLUSTER, A, INC_A, B, 0L, challenge, new byte[0],
            FrameProtection.AUTHENTICATED, mallory.prove(HandshakePhase.HELLO, CLUSTER, A, INC_A, B, 0L, challenge,
                new byte[0], FrameProtection.AUTHENTICATED))).isFalse();
    }
}
