package io.troupe.serialization.wire;

import io.troupe.actor.ActorId;
import io.troupe.serialization.internal.sbe.DirectoryUpdateDecoder;

/**
 * A received directory update: service registrations of one node.
 */
public final class DirectoryUpdateFrame extends Frame
{
    private final DirectoryUpdateDecoder decoder = new DirectoryUpdateDecoder();

    DirectoryUpdateFrame()
    {
    }

    @Override
    void onWrap()
    {
        decoder.wrap(buffer, blockOffset, blockLength, version);
    }

    /**
     * The sender's incarnation.
     *
     * @return the value.
     */
    public long incarnation()
    {
        return decoder.incarnation();
    }

    /**
     * The version of the sender's directory this update brings the receiver to.
     *
     * @return the value.
     */
    public long directoryVersion()
    {
        return decoder.directoryVersion();
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
     * Whether the entries are the sender's whole directory (else changes since the previous version).
     *
     * @return true or false.
     */
    public boolean snapshot()
    {
        return decoder.snapshotRaw() != 0;
    }

    /**
     * Entries in the update.
     *
     * @return the value.
     */
    public int count()
    {
        return groupCount;
    }

    /**
     * An entry's service (allocates).
     *
     * @param index 0..count-1.
     * @return the service id.
     */
    public ActorId service(final int index)
    {
        final int at = entryOffset(index);
        return ActorId.fromRaw(
            buffer.getLong(at + DirectoryUpdateDecoder.EntriesDecoder.serviceRaw1EncodingOffset(), ORDER),
            buffer.getLong(at + DirectoryUpdateDecoder.EntriesDecoder.serviceRaw2EncodingOffset(), ORDER));
    }

    /**
     * An entry's actor (allocates).
     *
     * @param index 0..count-1.
     * @return the actor id.
     */
    public ActorId actor(final int index)
    {
        final int at = entryOffset(index);
        return ActorId.fromRaw(
            buffer.getLong(at + DirectoryUpdateDecoder.EntriesDecoder.actorRaw1EncodingOffset(), ORDER),
            buffer.getLong(at + DirectoryUpdateDecoder.EntriesDecoder.actorRaw2EncodingOffset(), ORDER));
    }

    /**
     * What an entry does.
     *
     * @param index 0..count-1.
     * @return the operation, {@link DirectoryOp#UNKNOWN} for a code this build does not know.
     */
    public DirectoryOp op(final int index)
    {
        return DirectoryOp.fromCode(
            buffer.getByte(entryOffset(index) + DirectoryUpdateDecoder.EntriesDecoder.opEncodingOffset()) & 0xFF);
    }
}
