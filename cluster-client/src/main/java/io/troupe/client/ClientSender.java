package io.troupe.client;

import io.troupe.actor.ActorId;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredReason;
import io.troupe.interconnect.seal.FrameSeal;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.wire.ClientProtocol;
import io.troupe.serialization.wire.EnvelopeCompaction;
import io.troupe.serialization.wire.WireFormat;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * The client's send side, on its thread: takes the frames callers encoded into the send buffer, packs them into one
 * message per datagram (a frame that repeats the message's last full one goes compact), seals the message with the
 * session's key and offers it on the link's data publication. A push-back keeps the batch (sealed again next time,
 * with the same sequence number) and leaves the rest in the send buffer, which is how back pressure reaches the
 * callers. What is packed when a session is lost is told: asks fail (not sent), sends go to the undelivered listener.
 */
final class ClientSender
{
    private final ClientAgent agent;
    private final UnsafeBuffer batch;
    private final UnsafeBuffer sealed;
    /** Where compact frames are rebuilt (to tell what a lost batch held). */
    private final UnsafeBuffer expanded;
    private final int packLimit;
    private final ControlledMessageHandler recordHandler = this::onRecord;
    private NodeLink link;
    private int batchLength;
    /** Where the batch's last full envelope frame starts (what a compact frame repeats), or -1. */
    private int baseAt = -1;

    ClientSender(final ClientAgent agent, final int maxMessage, final int packLimit)
    {
        this.agent = agent;
        this.batch = new UnsafeBuffer(new byte[maxMessage - FrameSeal.OVERHEAD]);
        this.sealed = new UnsafeBuffer(new byte[maxMessage]);
        this.expanded = new UnsafeBuffer(new byte[maxMessage + EnvelopeCompaction.FIXED_LENGTH]);
        this.packLimit = Math.min(batch.capacity(), packLimit);
    }

    /** Moves what callers put in the send buffer into sealed messages of the open link; the records taken. */
    int send(final NodeLink link)
    {
        this.link = link;
        if (batchLength > 0 && !flush())
        {
            return 0;
        }
        final int records = agent.sendBuffer.controlledRead(recordHandler, 256);
        if (batchLength > 0)
        {
            flush();
        }
        return records;
    }

    private ControlledMessageHandler.Action onRecord(final int type, final MutableDirectBuffer buffer,
        final int index, final int length)
    {
        PendingAsk ask = null;
        if (type == ClientAgent.ASK)
        {
            ask = agent.pending.get(buffer.getLong(index + ClientAgent.FRAME_COOKIE_OFFSET, ByteOrder.LITTLE_ENDIAN));
            if (ask == null || ask.future.isDone())
            {
                return ControlledMessageHandler.Action.CONTINUE; // timed out or failed before it went: not sent
            }
        }
        final boolean compact = baseAt >= 0 && EnvelopeCompaction.isBase(buffer, index, length) &&
            EnvelopeCompaction.repeatsHeader(buffer, index, batch, baseAt);
        final int entry = compact ? EnvelopeCompaction.compactLength(length) : length;
        if (batchLength > 0 && batchLength + ClientProtocol.LENGTH_PREFIX + entry > packLimit)
        {
            if (!flush())
            {
                return ControlledMessageHandler.Action.ABORT;
            }
            return onRecord(type, buffer, index, length); // a new batch: this frame goes whole, as its base
        }
        final int at = batchLength + ClientProtocol.LENGTH_PREFIX;
        if (compact)
        {
            EnvelopeCompaction.writeCompact(batch, at, buffer, index, length);
            ClientProtocol.putLength(batch, batchLength, entry | ClientProtocol.COMPACT_FLAG);
        }
        else
        {
            batch.putBytes(at, buffer, index, length);
            ClientProtocol.putLength(batch, batchLength, length);
            baseAt = EnvelopeCompaction.isBase(batch, at, length) ? at : -1;
        }
        batchLength = at + entry;
        if (ask != null)
        {
            ask.sent = true;
        }
        agent.counters.framesSent.incrementAndGet();
        return ControlledMessageHandler.Action.CONTINUE;
    }

    /** Sends what the batch holds on the link, if anything (the client closing). */
    void flush(final NodeLink link)
    {
        this.link = link;
        if (batchLength > 0)
        {
            flush();
        }
    }

    /** Seals the batch and offers it; a push-back keeps it (sealed again next time, with the same number). */
    private boolean flush()
    {
        final int length = link.sealer.seal(FrameSeal.DATA, agent.config.dataStreamId(), batch, 0, batchLength, sealed);
        if (link.data.offer(sealed, 0, length) > 0)
        {
            link.sealer.sent(FrameSeal.DATA);
            batchLength = 0;
            baseAt = -1;
            return true;
        }
        agent.counters.offersBackPressured.incrementAndGet();
        return false;
    }

    /** An event of the client's own (a subscription), put straight into the batch. */
    @SuppressWarnings("unchecked")
    void appendEvent(final Object event, final long cookie)
    {
        final EventCodec<Object> codec = (EventCodec<Object>)agent.codecs.codecFor(event.getClass());
        final int payloadLength = codec.encodedLength(event);
        final int frameLength = WireFormat.envelopeLength(payloadLength, false);
        if (batchLength > 0 && batchLength + ClientProtocol.LENGTH_PREFIX + frameLength > batch.capacity())
        {
            return; // a full batch at session start: the subscription is renewed at the next session
        }
        final int payloadAt = agent.encoder.beginEnvelope(batch, batchLength + ClientProtocol.LENGTH_PREFIX,
            ActorId.NONE, ActorId.NONE, codec.typeId(), 0, cookie, 0, 0L, 0, null, payloadLength);
        codec.encode(event, batch, payloadAt);
        ClientProtocol.putLength(batch, batchLength, frameLength);
        baseAt = -1; // not a base: what follows goes whole
        batchLength += ClientProtocol.LENGTH_PREFIX + frameLength;
    }

    /** What is packed but not sent will not be: asks fail, sends are told to the undelivered listener. */
    void discardBatch(final UndeliveredReason reason)
    {
        ClientProtocol.unpack(batch, 0, batchLength, expanded, (buffer, frame, length) ->
        {
            final long cookie = buffer.getLong(frame + ClientAgent.FRAME_COOKIE_OFFSET, ByteOrder.LITTLE_ENDIAN);
            if (cookie != 0)
            {
                final PendingAsk ask = agent.pending.get(cookie);
                if (ask != null)
                {
                    ask.sent = false; // packed, never offered
                }
            }
            else
            {
                final ActorId recipient = ActorId.fromRaw(buffer.getLong(frame + WireFormat.HEADER_LENGTH,
                    ByteOrder.LITTLE_ENDIAN), buffer.getLong(frame + WireFormat.HEADER_LENGTH + Long.BYTES,
                    ByteOrder.LITTLE_ENDIAN));
                final int type = buffer.getInt(frame + WireFormat.HEADER_LENGTH + 6 * Long.BYTES,
                    ByteOrder.LITTLE_ENDIAN);
                agent.undelivered(new Undelivered(recipient, type, 0L, reason, false));
            }
        });
        batchLength = 0;
        baseAt = -1;
    }
}
