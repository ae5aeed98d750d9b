package io.troupe.membership.internal;

import io.troupe.interconnect.seal.HandshakeAuth;
import io.troupe.membership.table.VoterAddress;
import io.troupe.serialization.wire.HandshakePhase;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * How a node proves to the membership service that it holds the cluster secret, in Aeron Cluster's
 * challenge-response authentication: the connect request carries who the node says it is (its credentials), the
 * service answers with a fresh challenge, the node answers with an HMAC-SHA256 over the challenge and its identity
 * ({@link HandshakeAuth} with a label of its own, so a proof made here passes nowhere else and the reverse).
 *
 * <pre>
 *   credentials: "TRM1" | int32 node id (0 for one to be assigned) | int64 incarnation | int32 length | cluster id
 *   challenge:   32 random bytes
 *   response:    32-byte proof = HMAC(secret, "troupe-membership-v1", CONFIRM, cluster id, node id, incarnation,
 *                0, 0, challenge)
 * </pre>
 *
 * <p>Thread safe: a node has one, which its voter's consensus module and archive check answers with on their threads
 * while its membership client and archive clients answer challenges on theirs.
 */
public final class MembershipProof
{
    /** The label bound into every membership proof. */
    public static final String DOMAIN = "troupe-membership-v1";
    /** The longest cluster id, in UTF-8 bytes. */
    public static final int MAX_CLUSTER_ID_BYTES = 64;
    private static final int MAGIC = 0x54524d32; // "TRM2"
    private static final int FIXED_BYTES = Integer.BYTES * 3 + Long.BYTES * 2;
    private static final int PRINCIPAL_MAGIC = 0x54525031; // "TRP1"
    private static final int PRINCIPAL_BYTES = Integer.BYTES * 2 + Long.BYTES + HandshakeAuth.CHALLENGE_BYTES;

    /**
     * Not thread safe (one {@code Mac}), and shared by every thread of a voter that authenticates (the consensus
     * module's and the archive's authenticators, the membership client, the archive clients): each use holds its
     * lock. Unguarded, a check that ran beside a proof on another thread refused right answers, and a voter's own
     * node was refused at its start as if its secret were wrong.
     */
    private final HandshakeAuth auth;
    private final byte[] secret;
    private final String clusterId;
    private final long votersDigest;

    /**
     * The proof maker and checker for one cluster.
     *
     * @param secret       the cluster secret.
     * @param clusterId    the cluster id.
     * @param votersDigest the digest of the voter list this node has ({@link #votersDigest(List)}): a node whose
     *                     list differs from the voters' is refused even with the right secret.
     */
    public MembershipProof(final byte[] secret, final String clusterId, final long votersDigest)
    {
        if (clusterId == null || clusterId.isEmpty() ||
            clusterId.getBytes(StandardCharsets.UTF_8).length > MAX_CLUSTER_ID_BYTES)
        {
            throw new IllegalArgumentException("cluster id must have 1.." + MAX_CLUSTER_ID_BYTES + " bytes");
        }
        this.auth = new HandshakeAuth(secret, DOMAIN);
        this.secret = secret.clone();
        this.clusterId = clusterId;
        this.votersDigest = votersDigest;
    }

    /**
     * A digest of a voter list, order included: the first 8 bytes of the SHA-256 of {@code id@host:port,...}.
     *
     * @param voters the voters.
     * @return the digest.
     */
    public static long votersDigest(final List<VoterAddress> voters)
    {
        final StringBuilder text = new StringBuilder();
        for (final VoterAddress voter : voters)
        {
            text.append(voter.nodeId()).append('@').append(voter.host()).append(':').append(voter.port()).append(',');
        }
        try
        {
            return ByteBuffer.wrap(MessageDigest.getInstance("SHA-256")
                .digest(text.toString().getBytes(StandardCharsets.UTF_8))).getLong();
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("this JVM has no SHA-256", ex);
        }
    }

    /** Who a node says it is, and the digest of its voter list. */
    record Identity(int nodeId, long incarnation, String clusterId, long votersDigest)
    {
    }

    /** Whom a session was admitted as, and the challenge it answered: what its {@link SessionGuard}'s keys need. */
    record Principal(int nodeId, long incarnation, byte[] challenge)
    {
    }

    /**
     * What the authenticator records as an admitted session's principal (Aeron Cluster puts it in the log's session
     * open event, so every voter's service derives the same keys; the challenge was sent in the clear anyway).
     *
     * <pre>
     *   "TRP1" | int32 node id | int64 incarnation | 32-byte challenge
     * </pre>
     *
     * @param identity  who the node said it is.
     * @param challenge the challenge it answered.
     * @return the encoded principal.
     */
    static byte[] principal(final Identity identity, final byte[] challenge)
    {
        return ByteBuffer.allocate(PRINCIPAL_BYTES).order(ByteOrder.BIG_ENDIAN).putInt(PRINCIPAL_MAGIC)
            .putInt(identity.nodeId()).putLong(identity.incarnation()).put(challenge).array();
    }

    /**
     * Reads a session's principal; anything else gives null.
     *
     * @param encoded the principal, as the session has it.
     * @return the principal, or null.
     */
    static Principal readPrincipal(final byte[] encoded)
    {
        if (encoded == null || encoded.length != PRINCIPAL_BYTES)
        {
            return null;
        }
        final ByteBuffer in = ByteBuffer.wrap(encoded).order(ByteOrder.BIG_ENDIAN);
        if (in.getInt() != PRINCIPAL_MAGIC)
        {
            return null;
        }
        final int nodeId = in.getInt();
        final long incarnation = in.getLong();
        final byte[] challenge = new byte[HandshakeAuth.CHALLENGE_BYTES];
        in.get(challenge);
        return new Principal(nodeId, incarnation, challenge);
    }

    /**
     * The guard of a session's messages after its handshake.
     *
     * @param serviceSide true on the service's side, false on the node's.
     * @param nodeId      the node id in the node's credentials.
     * @param incarnation the incarnation in its credentials.
     * @param challenge   the challenge the node answered.
     * @return the guard.
     */
    SessionGuard guard(final boolean serviceSide, final int nodeId, final long incarnation, final byte[] challenge)
    {
        return SessionGuard.of(serviceSide, secret, clusterId, nodeId, incarnation, challenge);
    }

    /**
     * A node's credentials for its connect request.
     *
     * @param nodeId      its node id, or 0.
     * @param incarnation its incarnation.
     * @return the encoded credentials.
     */
    public byte[] credentials(final int nodeId, final long incarnation)
    {
        final byte[] id = clusterId.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(FIXED_BYTES + id.length).order(ByteOrder.BIG_ENDIAN)
            .putInt(MAGIC).putInt(nodeId).putLong(incarnation).putLong(votersDigest).putInt(id.length).put(id)
            .array();
    }

    /**
     * Reads credentials from a connect request; anything malformed gives null, nothing throws.
     *
     * @param encoded the bytes received.
     * @return the identity, or null.
     */
    static Identity read(final byte[] encoded)
    {
        if (encoded == null || encoded.length < FIXED_BYTES || encoded.length > FIXED_BYTES + MAX_CLUSTER_ID_BYTES)
        {
            return null;
        }
        final ByteBuffer in = ByteBuffer.wrap(encoded).order(ByteOrder.BIG_ENDIAN);
        final int magic = in.getInt();
        final int nodeId = in.getInt();
        final long incarnation = in.getLong();
        final long digest = in.getLong();
        final int idLength = in.getInt();
        if (magic != MAGIC || idLength != in.remaining() || nodeId < 0 || incarnation <= 0)
        {
            return null;
        }
        final byte[] id = new byte[idLength];
        in.get(id);
        return new Identity(nodeId, incarnation, new String(id, StandardCharsets.UTF_8), digest);
    }

    /**
     * A fresh challenge.
     *
     * @return {@link HandshakeAuth#CHALLENGE_BYTES} random bytes.
     */
    byte[] newChallenge()
    {
        synchronized (auth)
        {
            return auth.newChallenge();
        }
    }

    /**
     * The node's answer to the service's challenge.
     *
     * @param nodeId      the node id in its credentials.
     * @param incarnation the incarnation in its credentials.
     * @param challenge   the challenge received.
     * @return the proof.
     */
    public byte[] prove(final int nodeId, final long incarnation, final byte[] challenge)
    {
        synchronized (auth)
        {
            return auth.prove(HandshakePhase.CONFIRM, clusterId, nodeId, incarnation, 0, 0, challenge);
        }
    }

    /**
     * Checks a node's answer; inputs from the wire never throw.
     *
     * @param identity  who it said it is.
     * @param challenge the challenge sent.
     * @param proof     its answer.
     * @return true only for a proof made with this cluster's secret over the same identity and challenge.
     */
    boolean verify(final Identity identity, final byte[] challenge, final byte[] proof)
    {
        if (!clusterId.equals(identity.clusterId()))
        {
            return false;
        }
        synchronized (auth)
        {
            return auth.verify(HandshakePhase.CONFIRM, clusterId, identity.nodeId(), identity.incarnation(), 0, 0,
                challenge, proof);
        }
    }

    /**
     * The cluster id.
     *
     * @return the id.
     */
    public String clusterId()
    {
        return clusterId;
    }

    /**
     * The digest of this node's voter list.
     *
     * @return the digest.
     */
    public long votersDigest()
    {
        return votersDigest;
    }
}
