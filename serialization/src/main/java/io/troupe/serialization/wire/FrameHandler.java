package io.troupe.serialization.wire;

/**
 * Receives the frames a {@link FrameDecoder} validated, one call per frame, on the decoding thread. A frame
 * view is valid only during the call. Messages a handler does not override are ignored (and still counted
 * as decoded). A handler that throws an exception (checked ones too) does not stop the decoder: it counts
 * {@link FrameResult#HANDLER_FAILED} and returns. An {@link Error} is not caught.
 */
public interface FrameHandler
{
    /**
     * An envelope arrived.
     *
     * @param frame the envelope.
     */
    void onEnvelope(EnvelopeFrame frame);

    /**
     * A handshake step arrived.
     *
     * @param frame the step.
     */
    default void onHandshake(final HandshakeFrame frame)
    {
    }

    /**
     * A heartbeat arrived.
     *
     * @param frame the heartbeat.
     */
    default void onHeartbeat(final HeartbeatFrame frame)
    {
    }

    /**
     * A cumulative acknowledgement arrived.
     *
     * @param frame the ack.
     */
    default void onAck(final AckFrame frame)
    {
    }

    /**
     * A batch of credit deltas arrived.
     *
     * @param frame the batch.
     */
    default void onCreditDeltas(final CreditDeltasFrame frame)
    {
    }

    /**
     * An undelivered notice arrived.
     *
     * @param frame the notice.
     */
    default void onUndeliveredNotice(final UndeliveredNoticeFrame frame)
    {
    }

    /**
     * A directory update arrived.
     *
     * @param frame the update.
     */
    default void onDirectoryUpdate(final DirectoryUpdateFrame frame)
    {
    }

    /**
     * A goodbye arrived.
     *
     * @param frame the goodbye.
     */
    default void onGoodbye(final GoodbyeFrame frame)
    {
    }

    /**
     * A chunk (a slice of a large frame) arrived.
     *
     * @param frame the chunk.
     */
    default void onChunk(final ChunkFrame frame)
    {
    }
}
