package io.troupe.interconnect.seal;

import io.troupe.serialization.wire.FrameProtection;
import io.troupe.serialization.wire.HandshakePhase;

import javax.crypto.Mac;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Proof that a peer knows the cluster secret, without the secret ever travelling: each side sends a fresh
 * random challenge and the other answers with an HMAC-SHA256 over the challenge and both identities.
 *
 * <pre>
 *   A -&gt; B  HELLO   (A, incA, B, versions, cA,  proof = prove(HELLO, clusterId, A, incA, B, 0, cA))
 *   B -&gt; A  WELCOME (B, incB, A, incA, cB, echo cA, proof = prove(WELCOME, clusterId, B, incB, A, incA, cA))
 *   A -&gt; B  CONFIRM (A, incA, B, incB,  echo cB, proof = prove(CONFIRM, clusterId, A, incA, B, incB, cB))
 *   either   REFUSE  (detail) when a check fails: unauthenticated, so it only informs
 * </pre>
 *
 * <p>The HELLO proves the secret over the initiator's own challenge: it is not fresh for the acceptor (a copy
 * can be replayed), but nobody without the secret can make one, so a forged HELLO never starts a handshake. The
 * frame protection both sides announced is bound into every proof, so it cannot be downgraded on the way.
 *
 * <p>The MAC input is prefix free, so that no two different tuples give the same bytes (all numbers
 * big-endian):
 *
 * <pre>
 *   int32 length | "troupe-handshake-v1"
 *   int32 length | phase label ("WELCOME" or "CONFIRM", US-ASCII)
 *   int32 length | cluster id (UTF-8)
 *   int32 prover node id      | int64 prover incarnation
 *   int32 verifier node id    | int64 verifier incarnation
 *   int32 length | challenge
 *   int32 length | type table        (only if not empty)
 *   int32 frame protection code      (only if given: every step of protocol version 3 gives it)
 * </pre>
 *
 * <p>Binding the phase keeps a WELCOME proof from being replayed as a CONFIRM (and the reverse), binding the
 * prover first keeps a peer from reflecting a proof back at its maker, and binding both incarnations ties
 * the proof to one pair of process lifetimes.
 *
 * <p>Not thread safe: one {@link Mac} is reused for every proof. Use an instance from one thread only, the
 * interconnect agent's.
 */
public final class HandshakeAuth
{
    /** Length of a challenge made by {@link #newChallenge()}, in bytes. */
    public static final int CHALLENGE_BYTES = 32;
    /** Length of a proof (an HMAC-SHA256), in bytes. */
    public static final int PROOF_BYTES = 32;
    /** Label that separates these proofs from any other use of the same secret; a new scheme gets a new one. */
    public static final String DOMAIN = "troupe-handshake-v1";
    /** The label of a client's handshake with a node: a client's proof never passes as a node's, or the reverse. */
    public static final String CLIENT_DOMAIN = "troupe-client-handshake-v1";
    /** The shortest secret accepted, in bytes. */
    public static final int MIN_SECRET_BYTES = 16;

    private static final String ALGORITHM = "HmacSHA256";
    private static final byte[] HELLO_LABEL = HandshakePhase.HELLO.name().getBytes(StandardCharsets.US_ASCII);
    private static final byte[] WELCOME_LABEL = HandshakePhase.WELCOME.name().getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONFIRM_LABEL = HandshakePhase.CONFIRM.name().getBytes(StandardCharsets.US_ASCII);

    private final Mac mac;
    private final byte[] domainBytes;
    private final RandomGenerator random;
    private static final byte[] NO_TYPES = new byte[0];
    private final byte[] scratch = new byte[Long.BYTES];
    private final byte[] expectedProof = new byte[PROOF_BYTES];

    /**
     * Creates the authenticator with challenges from a {@link SecureRandom} made once, here.
     *
     * @param secret the cluster secret, at least {@link #MIN_SECRET_BYTES} bytes; copied.
     * @throws IllegalArgumentException if the secret is null or shorter than the minimum.
     * @throws IllegalStateException    if the JDK offers no HmacSHA256 (every Java SE runtime must).
     */
    public HandshakeAuth(final byte[] secret)
    {
        this(secret, new SecureRandom());
    }

    /**
     * Creates the authenticator for another kind of handshake than the nodes' (a client's: {@link #CLIENT_DOMAIN}),
     * with challenges from a {@link SecureRandom} made once, here.
     *
     * @param secret the secret, at least {@link #MIN_SECRET_BYTES} bytes; copied.
     * @param domain the label bound into every proof.
     * @throws IllegalArgumentException if the secret is null or shorter than the minimum.
     */
    public HandshakeAuth(final byte[] secret, final String domain)
    {
        this(secret, new SecureRandom(), domain);
    }

    /**
     * Creates the authenticator with challenges from the given source; tests pass a seeded one.
     *
     * @param secret the cluster secret, at least {@link #MIN_SECRET_BYTES} bytes; copied.
     * @param random where challenges come from; production code must pass a {@link SecureRandom}.
     */
    public HandshakeAuth(final byte[] secret, final RandomGenerator random)
    {
        this(secret, random, DOMAIN);
    }

    private HandshakeAuth(final byte[] secret, final RandomGenerator random, final String domain)
    {
        this.domainBytes = domain.getBytes(StandardCharsets.US_ASCII);
        if (secret == null || secret.length < MIN_SECRET_BYTES)
        {
            throw new IllegalArgumentException("secret of " + (secret == null ? "none" : secret.length + " bytes") +
                " is too short: at least " + MIN_SECRET_BYTES + " bytes are required");
        }
        this.random = Objects.requireNonNull(random, "random");
        try
        {
            mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(secret, ALGORITHM)); // the key spec keeps a copy of its own
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException(ALGORITHM + " is not available", ex);
        }
    }

    /**
     * A fresh challenge for the peer to prove.
     *
     * @return {@link #CHALLENGE_BYTES} random bytes, newly allocated.
     */
    public byte[] newChallenge()
    {
        final byte[] challenge = new byte[CHALLENGE_BYTES];
        random.nextBytes(challenge);
        return challenge;
    }

    /**
     * The proof for a peer's challenge: what this node sends in a WELCOME or a CONFIRM.
     *
     * @param phase               {@link HandshakePhase#WELCOME} or {@link HandshakePhase#CONFIRM}, the step that
     *                            carries the proof.
     * @param clusterId           the cluster's id.
     * @param proverNodeId        node id of the side that proves (this node).
     * @param proverIncarnation   incarnation of the side that proves.
     * @param verifierNodeId      node id of the side that asked (the peer).
     * @param verifierIncarnation incarnation of the side that asked.
     * @param challenge           the challenge the verifier sent; any length, a peer that sends a short one
     *                            only weakens its own check.
     * @return {@link #PROOF_BYTES} bytes, newly allocated.
     * @throws IllegalArgumentException if the phase is not WELCOME or CONFIRM.
     * @throws NullPointerException     if the cluster id or the challenge is null.
     */
    public byte[] prove(
        final HandshakePhase phase,
        final String clusterId,
        final int proverNodeId,
        final long proverIncarnation,
        final int verifierNodeId,
        final long verifierIncarnation,
        final byte[] challenge)
    {
        return prove(phase, clusterId, proverNodeId, proverIncarnation, verifierNodeId, verifierIncarnation, challenge,
            NO_TYPES);
    }

    /**
     * Proves knowledge of the secret for a peer's challenge, and binds the step's type table to the proof, so
     * the table cannot be changed on the way without the proof failing. An empty table adds nothing to the MAC:
     * the proof is then the one {@link #prove(HandshakePhase, String, int, long, int, long, byte[])} makes, as
     * a node that sends no table makes it.
     *
     * @param phase               as for the other overload.
     * @param clusterId           the cluster's id.
     * @param proverNodeId        node id of the side that proves.
     * @param proverIncarnation   incarnation of the side that proves.
     * @param verifierNodeId      node id of the side that asked.
     * @param verifierIncarnation incarnation of the side that asked.
     * @param challenge           the challenge the verifier sent.
     * @param types               the type table the step carries, possibly empty.
     * @return {@link #PROOF_BYTES} bytes, newly allocated.
     */
    public byte[] prove(
        final HandshakePhase phase,
        final String clusterId,
        final int proverNodeId,
        final long proverIncarnation,
        final int verifierNodeId,
        final long verifierIncarnation,
        final byte[] challenge,
        final byte[] types)
    {
        return prove(phase, clusterId, proverNodeId, proverIncarnation, verifierNodeId, verifierIncarnation, challenge,
            types, null);
    }

    /**
     * Proves knowledge of the secret for a step of protocol version 3: over the challenge, the step's type table and
     * the frame protection the prover announces.
     *
     * @param phase               {@link HandshakePhase#HELLO} (over the prover's own challenge, verifier
     *                            incarnation 0), {@link HandshakePhase#WELCOME} or {@link HandshakePhase#CONFIRM}.
     * @param clusterId           the cluster's id.
     * @param proverNodeId        node id of the side that proves.
     * @param proverIncarnation   incarnation of the side that proves.
     * @param verifierNodeId      node id of the side that checks.
     * @param verifierIncarnation incarnation of the side that checks (0 in HELLO).
     * @param challenge           the challenge proved.
     * @param types               the type table the step carries, possibly empty.
     * @param protection          the frame protection the step announces; null binds none.
     * @return {@link #PROOF_BYTES} bytes, newly allocated.
     */
    public byte[] prove(
        final HandshakePhase phase,
        final String clusterId,
        final int proverNodeId,
        final long proverIncarnation,
        final int verifierNodeId,
        final long verifierIncarnation,
        final byte[] challenge,
        final byte[] types,
        final FrameProtection protection)
    {
        final byte[] label = label(phase);
        if (label == null)
        {
            throw new IllegalArgumentException("no proof is made in handshake phase " + phase +
                ": only HELLO, WELCOME and CONFIRM carry one");
        }
        Objects.requireNonNull(clusterId, "clusterId");
        Objects.requireNonNull(challenge, "challenge");

        Objects.requireNonNull(types, "types");
        final byte[] proof = new byte[PROOF_BYTES];
        mac(label, clusterId, proverNodeId, proverIncarnation, verifierNodeId, verifierIncarnation, challenge, types,
            protection, proof);
        return proof;
    }

    /**
     * Checks a peer's proof for a challenge this node sent, in time independent of where the proof differs.
     * Inputs come from the wire, so nothing is thrown for bad ones: they just fail.
     *
     * @param phase               the step that carried the proof, {@link HandshakePhase#WELCOME} or
     *                            {@link HandshakePhase#CONFIRM}; any other fails.
     * @param clusterId           the cluster's id; null fails.
     * @param proverNodeId        node id of the side that proved (the peer).
     * @param proverIncarnation   incarnation of the side that proved.
     * @param verifierNodeId      node id of the side that asked (this node).
     * @param verifierIncarnation incarnation of the side that asked.
     * @param challenge           the challenge this node sent; null or empty fails.
     * @param proof               the proof received; null or of the wrong length fails.
     * @return true only if the proof was made with the same secret over the same inputs.
     */
    public boolean verify(
        final HandshakePhase phase,
        final String clusterId,
        final int proverNodeId,
        final long proverIncarnation,
        final int verifierNodeId,
        final long verifierIncarnation,
        final byte[] challenge,
        final byte[] proof)
    {
        return verify(phase, clusterId, proverNodeId, proverIncarnation, verifierNodeId, verifierIncarnation, challenge,
            NO_TYPES, proof);
    }

    /**
     * Checks a peer's proof over a challenge this node sent and the type table the same step carried.
     *
     * @param phase               the step that carried the proof.
     * @param clusterId           the cluster's id; null fails.
     * @param proverNodeId        node id of the side that proved (the peer).
     * @param proverIncarnation   incarnation of the side that proved.
     * @param verifierNodeId      node id of the side that asked (this node).
     * @param verifierIncarnation incarnation of the side that asked.
     * @param challenge           the challenge this node sent; null or empty fails.
     * @param types               the type table received with the proof; null fails.
     * @param proof               the proof received; null or of the wrong length fails.
     * @return true only if the proof was made with the same secret over the same inputs.
     */
    public boolean verify(
        final HandshakePhase phase,
        final String clusterId,
        final int proverNodeId,
        final long proverIncarnation,
        final int verifierNodeId,
        final long verifierIncarnation,
        final byte[] challenge,
        final byte[] types,
        final byte[] proof)
    {
        return verify(phase, clusterId, proverNodeId, proverIncarnation, verifierNodeId, verifierIncarnation, challenge,
            types, null, proof);
    }

    /**
     * Checks a peer's proof of protocol version 3 (see the proving overload).
     *
     * @param phase               the step that carried the proof.
     * @param clusterId           the cluster's id; null fails.
     * @param proverNodeId        node id of the side that proved (the peer).
     * @param proverIncarnation   incarnation of the side that proved.
     * @param verifierNodeId      node id of the side that checks (this node).
     * @param verifierIncarnation incarnation of the side that checks (0 for a HELLO).
     * @param challenge           the challenge proved; null or empty fails.
     * @param types               the type table received with the proof; null fails.
     * @param protection          the frame protection the step announced; null binds none.
     * @param proof               the proof received; null or of the wrong length fails.
     * @return true only if the proof was made with the same secret over the same inputs.
     */
    public boolean verify(
        final HandshakePhase phase,
        final String clusterId,
        final int proverNodeId,
        final long proverIncarnation,
        final int verifierNodeId,
        final long verifierIncarnation,
        final byte[] challenge,
        final byte[] types,
        final FrameProtection protection,
        final byte[] proof)
    {
        final byte[] label = label(phase);
        if (label == null || clusterId == null || challenge == null || challenge.length == 0 || types == null ||
            proof == null || proof.length != PROOF_BYTES)
        {
            return false;
        }

        mac(label, clusterId, proverNodeId, proverIncarnation, verifierNodeId, verifierIncarnation, challenge, types,
            protection, expectedProof);
        return MessageDigest.isEqual(expectedProof, proof);
    }

    /**
     * The highest protocol version both sides speak.
     *
     * @param ourMin   oldest version this node speaks.
     * @param ourMax   newest version this node speaks.
     * @param theirMin oldest version the peer speaks.
     * @param theirMax newest version the peer speaks.
     * @return the version, or -1 if the ranges do not overlap or either is empty or negative.
     */
    public static int negotiateVersion(final int ourMin, final int ourMax, final int theirMin, final int theirMax)
    {
        if (ourMin < 0 || theirMin < 0 || ourMin > ourMax || theirMin > theirMax)
        {
            return -1;
        }

        final int highest = Math.min(ourMax, theirMax);
        return highest >= Math.max(ourMin, theirMin) ? highest : -1;
    }

    private static byte[] label(final HandshakePhase phase)
    {
        if (phase == HandshakePhase.HELLO)
        {
            return HELLO_LABEL;
        }
        if (phase == HandshakePhase.WELCOME)
        {
            return WELCOME_LABEL;
        }
        if (phase == HandshakePhase.CONFIRM)
        {
            return CONFIRM_LABEL;
        }
        return null;
    }

    private void mac(
        final byte[] label,
        final String clusterId,
        final int proverNodeId,
        final long proverIncarnation,
        final int verifierNodeId,
        final long verifierIncarnation,
        final byte[] challenge,
        final byte[] types,
        final FrameProtection protection,
        final byte[] output)
    {
        updateBytes(domainBytes);
        updateBytes(label);
        updateBytes(clusterId.getBytes(StandardCharsets.UTF_8));
        updateInt(proverNodeId);
        updateLong(proverIncarnation);
        updateInt(verifierNodeId);
        updateLong(verifierIncarnation);
        updateBytes(challenge);
        if (types.length > 0)
        {
            updateBytes(types);
        }
        if (protection != null)
        {
            updateInt(protection.code());
        }
        try
        {
            mac.doFinal(output, 0); // also resets the Mac for the next proof
        }
        catch (final ShortBufferException ex)
        {
            throw new IllegalStateException("proof buffer of " + output.length + " bytes", ex);
        }
    }

    private void updateBytes(final byte[] bytes)
    {
        updateInt(bytes.length);
        mac.update(bytes);
    }

    private void updateInt(final int value)
    {
        for (int i = 0; i < Integer.BYTES; i++)
        {
            scratch[i] = (byte)(value >>> (Integer.SIZE - Byte.SIZE * (i + 1)));
        }
        mac.update(scratch, 0, Integer.BYTES);
    }

    private void updateLong(final long value)
    {
        for (int i = 0; i < Long.BYTES; i++)
        {
            scratch[i] = (byte)(value >>> (Long.SIZE - Byte.SIZE * (i + 1)));
        }
        mac.update(scratch, 0, Long.BYTES);
    }
}
