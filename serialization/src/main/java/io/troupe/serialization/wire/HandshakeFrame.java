package io.troupe.serialization.wire;

import io.troupe.serialization.internal.sbe.HandshakeDecoder;

/**
 * A received handshake step: identities, protocol versions, challenge and proof.
 */
public final class HandshakeFrame extends Frame
{
    private final HandshakeDecoder decoder = new HandshakeDecoder();

    HandshakeFrame()
    {
    }

    @Override
    void onWrap()
    {
        decoder.wrap(buffer, blockOffset, blockLength, version);
    }

    /**
     * The sender's incarnation (new on every start).
     *
     * @return the value.
     */
    public long incarnation()
    {
        return decoder.incarnation();
    }

    /**
     * The incarnation of the peer this step answers, 0 in HELLO.
     *
     * @return the value.
     */
    public long peerIncarnation()
    {
        return decoder.peerIncarnation();
    }

    /**
     * The sender's node id.
     *
     * @return the value.
     */
    public int nodeId()
    {
        return decoder.nodeId();
    }

    /**
     * The node id the sender believes it talks to.
     *
     * @return the value.
     */
    public int peerNodeId()
    {
        return decoder.peerNodeId();
    }

    /**
     * Oldest protocol version the sender speaks.
     *
     * @return the value.
     */
    public int minProtocolVersion()
    {
        return decoder.minProtocolVersion();
    }

    /**
     * Newest protocol version the sender speaks.
     *
     * @return the value.
     */
    public int maxProtocolVersion()
    {
        return decoder.maxProtocolVersion();
    }

    /**
     * The step.
     *
     * @return the value.
     */
    public HandshakePhase phase()
    {
        return HandshakePhase.fromCode(decoder.phaseRaw());
    }

    /**
     * The cluster id (allocates).
     *
     * @return the value.
     */
    public String clusterId()
    {
        return varString(0);
    }

    /**
     * The challenge the sender wants proved (allocates).
     *
     * @return the value.
     */
    public byte[] challenge()
    {
        return varBytes(1);
    }

    /**
     * The sender's proof for the peer's challenge (allocates).
     *
     * @return the value.
     */
    public byte[] proof()
    {
        return varBytes(2);
    }

    /**
     * Free text, e.g. why a handshake was refused (allocates).
     *
     * @return the value.
     */
    public String detail()
    {
        return varString(3);
    }

    /**
     * The sender's application event types (see {@link TypeTable}); empty in HELLO and REFUSE, and from a node of
     * schema version 2 or older (allocates).
     *
     * @return the table's bytes.
     */
    public byte[] types()
    {
        return varBytes(4);
    }

    /**
     * How the sender protects the session's frames after the handshake; {@link FrameProtection#UNKNOWN} from a
     * node of schema version 3 or older.
     *
     * @return the value.
     */
    public FrameProtection protection()
    {
        return version < 4 ? FrameProtection.UNKNOWN : FrameProtection.fromCode(decoder.frameProtection());
    }

    /**
     * The challenge this step answers: in WELCOME the HELLO's, in CONFIRM the WELCOME's; empty otherwise and from
     * a node of schema version 3 or older (allocates).
     *
     * @return the bytes.
     */
    public byte[] echo()
    {
        return varBytes(5);
    }
}
