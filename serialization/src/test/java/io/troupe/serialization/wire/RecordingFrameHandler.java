package io.troupe.serialization.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A handler that reads every accessor of every view it is given ({@link FrameSnapshots}) and keeps the
 * snapshots. Whatever reading throws is kept in {@link #readFailures}, not thrown, so that a test sees it
 * even though the decoder would have caught it.
 */
final class RecordingFrameHandler implements FrameHandler
{
    final List<Map<String, Object>> frames = new ArrayList<>();
    final List<Throwable> readFailures = new ArrayList<>();
    byte[] handshakeTypes;

    @Override
    public void onEnvelope(final EnvelopeFrame frame)
    {
        record(() -> FrameSnapshots.of(frame));
    }

    @Override
    public void onHandshake(final HandshakeFrame frame)
    {
        handshakeTypes = frame.types();
        record(() -> FrameSnapshots.of(frame));
    }

    @Override
    public void onHeartbeat(final HeartbeatFrame frame)
    {
        record(() -> FrameSnapshots.of(frame));
    }

    @Override
    public void onAck(final AckFrame frame)
    {
        record(() -> FrameSnapshots.of(frame));
    }

    @Override
    public void onCreditDeltas(final CreditDeltasFrame frame)
    {
        record(() -> FrameSnapshots.of(frame));
    }

    @Override
    public void onUndeliveredNotice(final UndeliveredNoticeFrame frame)
    {
        record(() -> FrameSnapshots.of(frame));
    }

    @Override
    public void onDirectoryUpdate(final DirectoryUpdateFrame frame)
    {
        record(() -> FrameSnapshots.of(frame));
    }

    @Override
    public void onGoodbye(final GoodbyeFrame frame)
    {
        record(() -> FrameSnapshots.of(frame));
    }

    @Override
    public void onChunk(final ChunkFrame frame)
    {
        record(() -> FrameSnapshots.of(frame));
    }

    /** Calls so far, whether reading succeeded or not. */
    int calls()
    {
        return frames.size() + readFailures.size();
    }

    /** The last snapshot taken. */
    Map<String, Object> last()
    {
        if (frames.isEmpty())
        {
            throw new AssertionError("the handler saw no frame" +
                (readFailures.isEmpty() ? "" : "; reading failed: " + readFailures));
        }
        return frames.get(frames.size() - 1);
    }

    void clear()
    {
        frames.clear();
        readFailures.clear();
    }

    private void record(final Supplier<Map<String, Object>> reader)
    {
        try
        {
            frames.add(reader.get());
        }
        catch (final Throwable ex)
        {
            readFailures.add(ex);
        }
    }
}
