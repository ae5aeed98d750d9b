package io.troupe.serialization.wire;

/**
 * One handshake step to send (see {@link FrameEncoder#encodeHandshake}); received steps arrive as
 * {@link HandshakeFrame}.
 *
 * @param phase              the step.
 * @param clusterId          the cluster's id, at most {@link WireFormat#MAX_CLUSTER_ID_BYTES} bytes of UTF-8.
 * @param nodeId             the sender's node id.
 * @param incarnation        the sender's incarnation.
 * @param peerNodeId         the node the sender believes it talks to.
 * @param peerIncarnation    the peer incarnation this step answers, 0 in HELLO.
 * @param minProtocolVersion oldest protocol version the sender speaks.
 * @param maxProtocolVersion newest protocol version the sender speaks.
 * @param challenge          what the peer must prove, at most {@link WireFormat#MAX_AUTH_BYTES}; may be empty.
 * @param proof              the proof for the peer's challenge, at most {@link WireFormat#MAX_AUTH_BYTES}; may be
 *                           empty.
 * @param detail             free text (e.g. why refused), at most {@link WireFormat#MAX_DETAIL_BYTES}; may be empty.
 * @param types              the sender's application event types ({@link TypeTable#encode}), at most
 *                           {@link WireFormat#MAX_TYPE_TABLE_BYTES}; empty except in WELCOME and CONFIRM.
 * @param protection         how the sender protects the session's frames after the handshake; never
 *                           {@link FrameProtection#UNKNOWN}.
 * @param echo               WELCOME: the HELLO challenge it answers; CONFIRM: the WELCOME challenge it answers;
 *                           else empty. At most {@link WireFormat#MAX_AUTH_BYTES}.
 */
public record Handshake(
    HandshakePhase phase,
    String clusterId,
    int nodeId,
    long incarnation,
    int peerNodeId,
    long peerIncarnation,
    int minProtocolVersion,
    int maxProtocolVersion,
    byte[] challenge,
    byte[] proof,
    String detail,
    byte[] types,
    FrameProtection protection,
    byte[] echo)
{
    /**
     * A step of a session whose frames are {@link FrameProtection#AUTHENTICATED}, echoing nothing.
     *
     * @param phase              the step.
     * @param clusterId          the cluster's id.
     * @param nodeId             the sender's node id.
     * @param incarnation        the sender's incarnation.
     * @param peerNodeId         the node the sender believes it talks to.
     * @param peerIncarnation    the peer incarnation this step answers.
     * @param minProtocolVersion oldest protocol version the sender speaks.
     * @param maxProtocolVersion newest protocol version the sender speaks.
     * @param challenge          what the peer must prove.
     * @param proof              the proof for the peer's challenge.
     * @param detail             free text.
     * @param types              the sender's application event types.
     */
    public Handshake(
        final HandshakePhase phase,
        final String clusterId,
        final int nodeId,
        final long incarnation,
        final int peerNodeId,
        final long peerIncarnation,
        final int minProtocolVersion,
        final int maxProtocolVersion,
        final byte[] challenge,
        final byte[] proof,
        final String detail,
        final byte[] types)
    {
        this(phase, clusterId, nodeId, incarnation, peerNodeId, peerIncarnation, minProtocolVersion, maxProtocolVersion,
            challenge, proof, detail, types, FrameProtection.AUTHENTICATED, new byte[0]);
    }

    /**
     * A step that carries no type table (HELLO, REFUSE).
     *
     * @param phase              the step.
     * @param clusterId          the cluster's id.
     * @param nodeId             the sender's node id.
     * @param incarnation        the sender's incarnation.
     * @param peerNodeId         the node the sender believes it talks to.
     * @param peerIncarnation    the peer incarnation this step answers.
     * @param minProtocolVersion oldest protocol version the sender speaks.
     * @param maxProtocolVersion newest protocol version the sender speaks.
     * @param challenge          what the peer must prove.
     * @param proof              the proof for the peer's challenge.
     * @param detail             free text.
     */
    public Handshake(
        final HandshakePhase phase,
        final String clusterId,
        final int nodeId,
        final long incarnation,
        final int peerNodeId,
        final long peerIncarnation,
        final int minProtocolVersion,
        final int maxProtocolVersion,
        final byte[] challenge,
        final byte[] proof,
        final String detail)
    {
        this(phase, clusterId, nodeId, incarnation, peerNodeId, peerIncarnation, minProtocolVersion, maxProtocolVersion,
            challenge, proof, detail, new byte[0]);
    }
}
