package io.troupe.serialization;

import io.troupe.actor.MailboxCollapsed;
import io.troupe.actor.MalformedEventException;
import io.troupe.actor.NodeConnected;
import io.troupe.actor.NodeDisconnected;
import io.troupe.actor.Poison;
import io.troupe.actor.Terminated;
import io.troupe.actor.TerminationReason;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredReason;
import io.troupe.actor.spi.WatchRequest;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.util.List;

import static io.troupe.serialization.CodecChecks.ORDER;
import static io.troupe.serialization.CodecChecks.getActorId;
import static io.troupe.serialization.CodecChecks.putActorId;

/**
 * Codecs of the runtime's own events, registered by {@link EventCodecRegistry.Builder#withTroupeCodecs()}. All are
 * fixed-length, little-endian, and allocate nothing to encode; an {@code ActorId} is its two raw longs, so a
 * {@code ServiceId} comes back as a {@code ServiceId}. Longer payloads are accepted and their tail ignored, so a
 * later version may append fields.
 *
 * <pre>
 *  Undelivered (30 bytes)                     MailboxCollapsed (24 bytes)
 *    0  recipient.raw1   int64                  0  actor.raw1   int64
 *    8  recipient.raw2   int64                  8  actor.raw2   int64
 *   16  cookie           int64                 16  dropped      int64
 *   24  type             int32
 *   28  reason           uint8 (0 ACTOR_UNKNOWN, 1 DISCONNECTED, 2 COLLAPSED, 3 SHED, 4 SHUTDOWN, 5 REFUSED)
 *   29  unsure           uint8 (0 or 1)
 *
 *  Poison (0 bytes)       NodeConnected, NodeDisconnected (4 bytes): 0 nodeId int32
 *
 *  WatchRequest (17 bytes)                    Terminated (17 bytes)
 *    0  watcher.raw1     int64                  0  actor.raw1   int64
 *    8  watcher.raw2     int64                  8  actor.raw2   int64
 *   16  watch            uint8 (0 or 1)        16  reason       uint8 (0 PASSED_AWAY, 1 NOT_ALIVE, 2 NODE_STOPPED,
 *                                                                      3 NODE_DOWNED, 4 NODE_RESTARTED)
 * </pre>
 */
public final class TroupeCodecs
{
    /** Payload length of {@link #UNDELIVERED}. */
    public static final int UNDELIVERED_LENGTH = 30;
    /** Payload length of {@link #MAILBOX_COLLAPSED}. */
    public static final int MAILBOX_COLLAPSED_LENGTH = 24;
    /** Payload length of {@link #NODE_CONNECTED} and {@link #NODE_DISCONNECTED}. */
    public static final int NODE_EVENT_LENGTH = 4;
    /** Payload length of {@link #WATCH_REQUEST} and {@link #TERMINATED}. */
    public static final int WATCH_EVENT_LENGTH = 17;

    /** {@link Undelivered} notices. The recipient and reason must not be null. */
    public static final EventCodec<Undelivered> UNDELIVERED = new UndeliveredCodec();
    /** {@link Poison}: an empty payload that decodes to {@link Poison#INSTANCE}. */
    public static final EventCodec<Poison> POISON = new PoisonCodec();
    /** {@link MailboxCollapsed}. The actor must not be null. */
    public static final EventCodec<MailboxCollapsed> MAILBOX_COLLAPSED = new MailboxCollapsedCodec();
    /** {@link NodeConnected}. */
    public static final EventCodec<NodeConnected> NODE_CONNECTED = new NodeConnectedCodec();
    /** {@link NodeDisconnected}. */
    public static final EventCodec<NodeDisconnected> NODE_DISCONNECTED = new NodeDisconnectedCodec();
    /** {@link WatchRequest}: what a watcher sends the actor it watches. The watcher must not be null. */
    public static final EventCodec<WatchRequest> WATCH_REQUEST = new WatchRequestCodec();
    /** {@link Terminated}. The actor and reason must not be null. */
    public static final EventCodec<Terminated> TERMINATED = new TerminatedCodec();
    /** Every codec above, in type id order. */
    public static final List<EventCodec<?>> ALL = List.of(UNDELIVERED, POISON, MAILBOX_COLLAPSED, WATCH_REQUEST,
        TERMINATED, NODE_CONNECTED, NODE_DISCONNECTED);

    private static final int RECIPIENT_OFFSET = 0;
    private static final int COOKIE_OFFSET = 16;
    private static final int TYPE_OFFSET = 24;
    private static final int REASON_OFFSET = 28;
    private static final int UNSURE_OFFSET = 29;
    private static final int ACTOR_OFFSET = 0;
    private static final int DROPPED_OFFSET = 16;
    private static final int NODE_ID_OFFSET = 0;
    private static final int WATCH_FLAG_OFFSET = 16;

    private TroupeCodecs()
    {
    }

    private static final class UndeliveredCodec extends FixedLengthCodec<Undelivered>
    {
        UndeliveredCodec()
        {
            super(Undelivered.TYPE, "troupe.Undelivered", Undelivered.class, UNDELIVERED_LENGTH);
        }

        @Override
        protected void write(final Undelivered event, final MutableDirectBuffer buffer, final int offset)
        {
            putActorId(buffer, offset + RECIPIENT_OFFSET, event.recipient());
            buffer.putLong(offset + COOKIE_OFFSET, event.cookie(), ORDER);
            buffer.putInt(offset + TYPE_OFFSET, event.type(), ORDER);
            buffer.putByte(offset + REASON_OFFSET, reasonCode(event.reason()));
            buffer.putByte(offset + UNSURE_OFFSET, (byte)(event.unsure() ? 1 : 0));
        }

        @Override
        protected Undelivered read(final DirectBuffer buffer, final int offset)
        {
            final byte unsure = buffer.getByte(offset + UNSURE_OFFSET);
            if (unsure != 0 && unsure != 1)
            {
                throw new MalformedEventException(Undelivered.TYPE, "unsure flag is " + unsure + ", expected 0 or 1");
            }
            return new Undelivered(
                getActorId(buffer, offset + RECIPIENT_OFFSET),
                buffer.getInt(offset + TYPE_OFFSET, ORDER),
                buffer.getLong(offset + COOKIE_OFFSET, ORDER),
                reasonOf(buffer.getByte(offset + REASON_OFFSET)),
                unsure == 1);
        }

        /** Wire codes are explicit, so reordering the enum never changes the format; a new reason fails to compile. */
        private static byte reasonCode(final UndeliveredReason reason)
        {
            return switch (reason)
            {
                case ACTOR_UNKNOWN -> 0;
                case DISCONNECTED -> 1;
                case COLLAPSED -> 2;
                case SHED -> 3;
                case SHUTDOWN -> 4;
                case REFUSED -> 5;
            };
        }

        private static UndeliveredReason reasonOf(final byte code)
        {
            return switch (code)
            {
                case 0 -> UndeliveredReason.ACTOR_UNKNOWN;
                case 1 -> UndeliveredReason.DISCONNECTED;
                case 2 -> UndeliveredReason.COLLAPSED;
                case 3 -> UndeliveredReason.SHED;
                case 4 -> UndeliveredReason.SHUTDOWN;
                case 5 -> UndeliveredReason.REFUSED;
                default -> throw new MalformedEventException(Undelivered.TYPE,
                    "unknown undelivered reason code " + code);
            };
        }
    }

    private static final class PoisonCodec extends FixedLengthCodec<Poison>
    {
        PoisonCodec()
        {
            super(Poison.TYPE, "troupe.Poison", Poison.class, 0);
        }

        @Override
        protected void write(final Poison event, final MutableDirectBuffer buffer, final int offset)
        {
        }

        @Override
        protected Poison read(final DirectBuffer buffer, final int offset)
        {
            return Poison.INSTANCE;
        }
    }

    private static final class MailboxCollapsedCodec extends FixedLengthCodec<MailboxCollapsed>
    {
        MailboxCollapsedCodec()
        {
            super(MailboxCollapsed.TYPE, "troupe.MailboxCollapsed", MailboxCollapsed.class, MAILBOX_COLLAPSED_LENGTH);
        }

        @Override
        protected void write(final MailboxCollapsed event, final MutableDirectBuffer buffer, final int offset)
        {
            putActorId(buffer, offset + ACTOR_OFFSET, event.actor());
            buffer.putLong(offset + DROPPED_OFFSET, event.dropped(), ORDER);
        }

        @Override
        protected MailboxCollapsed read(final DirectBuffer buffer, final int offset)
        {
            return new MailboxCollapsed(
                getActorId(buffer, offset + ACTOR_OFFSET), buffer.getLong(offset + DROPPED_OFFSET, ORDER));
        }
    }

    private static final class NodeConnectedCodec extends FixedLengthCodec<NodeConnected>
    {
        NodeConnectedCodec()
        {
            super(NodeConnected.TYPE, "troupe.NodeConnected", NodeConnected.class, NODE_EVENT_LENGTH);
        }

        @Override
        protected void write(final NodeConnected event, final MutableDirectBuffer buffer, final int offset)
        {
            buffer.putInt(offset + NODE_ID_OFFSET, event.nodeId(), ORDER);
        }

        @Override
        protected NodeConnected read(final DirectBuffer buffer, final int offset)
        {
            return new NodeConnected(buffer.getInt(offset + NODE_ID_OFFSET, ORDER));
        }
    }

    private static final class NodeDisconnectedCodec extends FixedLengthCodec<NodeDisconnected>
    {
        NodeDisconnectedCodec()
        {
            super(NodeDisconnected.TYPE, "troupe.NodeDisconnected", NodeDisconnected.class, NODE_EVENT_LENGTH);
        }

        @Override
        protected void write(final NodeDisconnected event, final MutableDirectBuffer buffer, final int offset)
        {
            buffer.putInt(offset + NODE_ID_OFFSET, event.nodeId(), ORDER);
        }

        @Override
        protected NodeDisconnected read(final DirectBuffer buffer, final int offset)
        {
            return new NodeDisconnected(buffer.getInt(offset + NODE_ID_OFFSET, ORDER));
        }
    }

    private static final class WatchRequestCodec extends FixedLengthCodec<WatchRequest>
    {
        WatchRequestCodec()
        {
            super(WatchRequest.TYPE, "troupe.WatchRequest", WatchRequest.class, WATCH_EVENT_LENGTH);
        }

        @Override
        protected void write(final WatchRequest event, final MutableDirectBuffer buffer, final int offset)
        {
            putActorId(buffer, offset + ACTOR_OFFSET, event.watcher());
            buffer.putByte(offset + WATCH_FLAG_OFFSET, (byte)(event.watch() ? 1 : 0));
        }

        @Override
        protected WatchRequest read(final DirectBuffer buffer, final int offset)
        {
            final byte watch = buffer.getByte(offset + WATCH_FLAG_OFFSET);
            if (watch != 0 && watch != 1)
            {
                throw new MalformedEventException(WatchRequest.TYPE, "watch flag is " + watch + ", expected 0 or 1");
            }
            return new WatchRequest(getActorId(buffer, offset + ACTOR_OFFSET), watch == 1);
        }
    }

    private static final class TerminatedCodec extends FixedLengthCodec<Terminated>
    {
        TerminatedCodec()
        {
            super(Terminated.TYPE, "troupe.Terminated", Terminated.class, WATCH_EVENT_LENGTH);
        }

        @Override
        protected void write(final Terminated event, final MutableDirectBuffer buffer, final int offset)
        {
            putActorId(buffer, offset + ACTOR_OFFSET, event.actor());
            buffer.putByte(offset + WATCH_FLAG_OFFSET, reasonCode(event.reason()));
        }

        @Override
        protected Terminated read(final DirectBuffer buffer, final int offset)
        {
            return new Terminated(getActorId(buffer, offset + ACTOR_OFFSET),
                reasonOf(buffer.getByte(offset + WATCH_FLAG_OFFSET)));
        }

        /** Wire codes are explicit, as for Undelivered's reasons. */
        private static byte reasonCode(final TerminationReason reason)
        {
            return switch (reason)
            {
                case PASSED_AWAY -> 0;
                case NOT_ALIVE -> 1;
                case NODE_STOPPED -> 2;
                case NODE_DOWNED -> 3;
                case NODE_RESTARTED -> 4;
            };
        }

        private static TerminationReason reasonOf(final byte code)
        {
            return switch (code)
            {
                case 0 -> TerminationReason.PASSED_AWAY;
                case 1 -> TerminationReason.NOT_ALIVE;
                case 2 -> TerminationReason.NODE_STOPPED;
                case 3 -> TerminationReason.NODE_DOWNED;
                case 4 -> TerminationReason.NODE_RESTARTED;
                default -> throw new MalformedEventException(Terminated.TYPE,
                    "unknown termination reason code " + code);
            };
        }
    }
}
