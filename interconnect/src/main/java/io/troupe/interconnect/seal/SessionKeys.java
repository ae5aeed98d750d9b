package io.troupe.interconnect.seal;

import io.troupe.serialization.wire.FrameProtection;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The keys of one session, one per direction, derived from the cluster secret and both handshake challenges
 * with HKDF-SHA256 (RFC 5869, one output block):
 *
 * <pre>
 *   PRK = HMAC(salt = [DOMAIN, initiator challenge, acceptor challenge], IKM = cluster secret)
 *   key = HMAC(PRK, [DOMAIN, direction, cluster id, protection, initiator node, incarnation,
 *                    acceptor node, incarnation] || 0x01)
 * </pre>
 *
 * (each bracketed list is its fields, length-prefixed or fixed-width, big-endian). Both challenges are fresh for
 * the handshake, so every session has keys of its own: a frame of an earlier session, or of a session with an
 * earlier incarnation of the peer, fails under them. The two directions have different keys, so a frame cannot be
 * reflected back at its sender. Each key has a 16-bit id, public, that lets a receiver tell a frame of another
 * session (a stale one) from a forged one.
 */
public final class SessionKeys
{
    /** Label of this derivation; a new scheme gets a new one. */
    public static final String DOMAIN = "troupe-session-v1";
    /** Label of a client session's derivation. */
    public static final String CLIENT_DOMAIN = "troupe-client-session-v1";
    private static final byte[] INITIATOR_TO_ACCEPTOR = "initiator->acceptor".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ACCEPTOR_TO_INITIATOR = "acceptor->initiator".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KEY_ID_LABEL = "troupe-key-id".getBytes(StandardCharsets.US_ASCII);

    final FrameProtection protection;
    /** What the initiator seals with and the acceptor opens with. */
    final byte[] initiatorToAcceptor;
    final byte[] acceptorToInitiator;
    final int initiatorToAcceptorId;
    final int acceptorToInitiatorId;

    private SessionKeys(final FrameProtection protection, final byte[] initiatorToAcceptor,
        final byte[] acceptorToInitiator)
    {
        this.protection = protection;
        this.initiatorToAcceptor = initiatorToAcceptor;
        this.acceptorToInitiator = acceptorToInitiator;
        this.initiatorToAcceptorId = keyId(initiatorToAcceptor);
        this.acceptorToInitiatorId = keyId(acceptorToInitiator);
    }

    /**
     * Derives the keys of a session between two nodes ({@link #DOMAIN}).
     *
     * @param secret               the cluster secret.
     * @param clusterId            the cluster's id.
     * @param protection           how frames are protected.
     * @param initiatorNode        the initiator's node id.
     * @param initiatorIncarnation the initiator's incarnation.
     * @param acceptorNode         the acceptor's node id.
     * @param acceptorIncarnation  the acceptor's incarnation.
     * @param initiatorChallenge   the initiator's handshake challenge.
     * @param acceptorChallenge    the acceptor's handshake challenge.
     * @return both directions' keys.
     */
    public static SessionKeys derive(
        final byte[] secret,
        final String clusterId,
        final FrameProtection protection,
        final int initiatorNode,
        final long initiatorIncarnation,
        final int acceptorNode,
        final long acceptorIncarnation,
        final byte[] initiatorChallenge,
        final byte[] acceptorChallenge)
    {
        return derive(DOMAIN, secret, clusterId, protection, initiatorNode, initiatorIncarnation, acceptorNode,
            acceptorIncarnation, initiatorChallenge, acceptorChallenge);
    }

    /**
     * Derives the keys of one session.
     *
     * @param domain               the derivation's label: {@link #DOMAIN} for nodes, {@link #CLIENT_DOMAIN} for
     *                             clients.
     * @param secret               the shared secret.
     * @param clusterId            the cluster's id.
     * @param protection           how frames are protected.
     * @param initiatorNode        the initiator's id.
     * @param initiatorIncarnation the initiator's incarnation.
     * @param acceptorNode         the acceptor's id.
     * @param acceptorIncarnation  the acceptor's incarnation.
     * @param initiatorChallenge   the initiator's handshake challenge.
     * @param acceptorChallenge    the acceptor's handshake challenge.
     * @return both directions' keys.
     */
    public static SessionKeys derive(
        final String domain,
        final byte[] secret,
        final String clusterId,
        final FrameProtection protection,
        final int initiatorNode,
        final long initiatorIncarnation,
        final int acceptorNode,
        final long acceptorIncarnation,
        final byte[] initiatorChallenge,
        final byte[] acceptorChallenge)
    {
        final byte[] domainBytes = domain.getBytes(StandardCharsets.US_ASCII);
        final byte[] salt = new Hmac256(new byte[0]).updateField(domainBytes).updateField(initiatorChallenge)
            .updateField(acceptorChallenge).finish(); // a fixed-length salt over the variable fields
        final Hmac256 extract = new Hmac256(salt);
        final byte[] prk = extract.update(secret).finish();
        extract.destroy();
        final Hmac256 expand = new Hmac256(prk);
        Arrays.fill(prk, (byte)0);
        final byte[] cluster = clusterId.getBytes(StandardCharsets.UTF_8);
        final byte[] toAcceptor = expand(expand, domainBytes, INITIATOR_TO_ACCEPTOR, cluster, protection, initiatorNode,
            initiatorIncarnation, acceptorNode, acceptorIncarnation);
        final byte[] toInitiator = expand(expand, domainBytes, ACCEPTOR_TO_INITIATOR, cluster, protection,
            initiatorNode, initiatorIncarnation, acceptorNode, acceptorIncarnation);
        expand.destroy();
        return new SessionKeys(protection, toAcceptor, toInitiator);
    }

    private static byte[] expand(
        final Hmac256 expand,
        final byte[] domainBytes,
        final byte[] direction,
        final byte[] cluster,
        final FrameProtection protection,
        final int initiatorNode,
        final long initiatorIncarnation,
        final int acceptorNode,
        final long acceptorIncarnation)
    {
        return expand.updateField(domainBytes).updateField(direction).updateField(cluster)
            .updateInt(protection.code())
            .updateInt(initiatorNode).updateLong(initiatorIncarnation)
            .updateInt(acceptorNode).updateLong(acceptorIncarnation)
            .update(new byte[]{1}).finish();
    }

    private static int keyId(final byte[] key)
    {
        final byte[] tag = new Hmac256(key).update(KEY_ID_LABEL).finish();
        return (tag[0] & 0xFF) << 8 | tag[1] & 0xFF;
    }

    /**
     * The key this side seals with.
     *
     * @param initiator whether this side started the handshake.
     * @return the key (not a copy).
     */
    public byte[] sealKey(final boolean initiator)
    {
        return initiator ? initiatorToAcceptor : acceptorToInitiator;
    }

    /**
     * The id of the key this side seals with.
     *
     * @param initiator whether this side started the handshake.
     * @return the id.
     */
    public int sealKeyId(final boolean initiator)
    {
        return initiator ? initiatorToAcceptorId : acceptorToInitiatorId;
    }

    /**
     * The key this side opens the peer's frames with.
     *
     * @param initiator whether this side started the handshake.
     * @return the key (not a copy).
     */
    public byte[] openKey(final boolean initiator)
    {
        return initiator ? acceptorToInitiator : initiatorToAcceptor;
    }

    /**
     * The id of the key this side opens with.
     *
     * @param initiator whether this side started the handshake.
     * @return the id.
     */
    public int openKeyId(final boolean initiator)
    {
        return initiator ? acceptorToInitiatorId : initiatorToAcceptorId;
    }

    /** Zeroes the key bytes once the seal and the opener hold their own copies. */
    public void destroy()
    {
        Arrays.fill(initiatorToAcceptor, (byte)0);
        Arrays.fill(acceptorToInitiator, (byte)0);
    }
}
