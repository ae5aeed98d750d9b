package io.troupe.serialization.wire;

import io.troupe.actor.EventTypes;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.EventCodecRegistry;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The application event types a node announces in its handshake (WELCOME and CONFIRM), so that two nodes that
 * bind one type id to different things refuse each other before any event is misread: 8 bytes per type,
 * little-endian, the type id then its codec's {@link EventCodec#fingerprint()} folded to 32 bits, in type id
 * order. Only application codecs (user spaces) are listed: Troupe's own are fixed by the protocol version.
 *
 * <p>A type one side registers and the other does not is fine (a rolling upgrade adds types); the same id with
 * a different fingerprint (another name, or another shape) is a conflict.
 */
public final class TypeTable
{
    /** Bytes per entry: type id (int32), fingerprint (int32). */
    public static final int ENTRY_BYTES = 8;
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    private static final int MAX_LISTED_CONFLICTS = 5;

    private TypeTable()
    {
    }

    /**
     * A registry's table.
     *
     * @param codecs the node's codecs.
     * @return the table's bytes.
     * @throws IllegalArgumentException if the registry has more than {@link WireFormat#MAX_TYPE_TABLE_ENTRIES}
     *                                  application codecs.
     */
    public static byte[] encode(final EventCodecRegistry codecs)
    {
        final List<EventCodec<?>> user = new ArrayList<>();
        for (final EventCodec<?> codec : codecs.codecs())
        {
            if (EventTypes.spaceOf(codec.typeId()) >= EventTypes.SPACE_USER_FIRST)
            {
                user.add(codec);
            }
        }
        if (user.size() > WireFormat.MAX_TYPE_TABLE_ENTRIES)
        {
            throw new IllegalArgumentException("a node may announce at most " + WireFormat.MAX_TYPE_TABLE_ENTRIES +
                " application event types in its handshake; this registry has " + user.size());
        }
        user.sort(Comparator.comparingInt(EventCodec::typeId));
        final byte[] table = new byte[user.size() * ENTRY_BYTES];
        final UnsafeBuffer buffer = new UnsafeBuffer(table);
        for (int i = 0; i < user.size(); i++)
        {
            buffer.putInt(i * ENTRY_BYTES, user.get(i).typeId(), ORDER);
            buffer.putInt(i * ENTRY_BYTES + Integer.BYTES, fold(user.get(i).fingerprint()), ORDER);
        }
        return table;
    }

    /**
     * Compares a peer's table with this node's codecs.
     *
     * @param codecs     this node's codecs.
     * @param theirs     the table the peer sent (validated by the frame decoder against
     *                   {@link WireFormat#MAX_TYPE_TABLE_BYTES}); empty from a node that sends none.
     * @param peerNodeId the peer, for the message.
     * @return null if nothing conflicts; otherwise why, naming each conflicting type (up to five).
     */
    public static String conflicts(final EventCodecRegistry codecs, final byte[] theirs, final int peerNodeId)
    {
        if (theirs.length % ENTRY_BYTES != 0 || theirs.length > WireFormat.MAX_TYPE_TABLE_BYTES)
        {
            return "its type table of " + theirs.length + " bytes is malformed";
        }
        final UnsafeBuffer buffer = new UnsafeBuffer(theirs);
        StringBuilder problems = null;
        int count = 0;
        for (int at = 0; at < theirs.length; at += ENTRY_BYTES)
        {
            final int typeId = buffer.getInt(at, ORDER);
            final int fingerprint = buffer.getInt(at + Integer.BYTES, ORDER);
            final EventCodec<?> ours = codecs.codec(typeId);
            if (ours == null || fold(ours.fingerprint()) == fingerprint)
            {
                continue;
            }
            count++;
            if (count <= MAX_LISTED_CONFLICTS)
            {
                problems = problems == null ? new StringBuilder() : problems.append("; ");
                problems.append("type ").append(EventTypes.describe(typeId)).append(" is '").append(ours.name())
                    .append("' (fingerprint ").append(Integer.toHexString(fold(ours.fingerprint())))
                    .append(") here but node ").append(peerNodeId).append(" binds it to fingerprint ")
                    .append(Integer.toHexString(fingerprint));
            }
        }
        if (problems == null)
        {
            return null;
        }
        return count + " event type" + (count == 1 ? "" : "s") + " differ in name or shape: " + problems +
            (count > MAX_LISTED_CONFLICTS ? "; and " + (count - MAX_LISTED_CONFLICTS) + " more" : "") +
            " (register the same codec on both nodes, or give one of them another type id)";
    }

    private static int fold(final long fingerprint)
    {
        return (int)(fingerprint ^ (fingerprint >>> 32));
    }
}
