package io.troupe.node.client;

import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.EventTypes;
import io.troupe.actor.Terminated;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredReason;
import io.troupe.actor.WirePayload;
import io.troupe.interconnect.seal.FrameSeal;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.wire.ClientProtocol;
import io.troupe.serialization.wire.FrameEncoder;
import io.troupe.serialization.wire.GoodbyeReason;
import io.troupe.serialization.wire.WireFormat;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * What the client ingress sends its clients: the replies, notices and results its sessions' proxies hand back
 * (freeing their ask slots, late ones dropped), and its own notices, packed into each session's batch and sealed
 * on the data stream at the end of the duty cycle (or when the batch is full); a push-back keeps sealed messages in
 * order, up to {@link ClientSession#MAX_PENDING_MESSAGES}; and the sealed heartbeats and goodbyes of the control
 * stream. Owned by the ingress agent's thread, as its sessions are.
 */
final class ClientOutbound
{
    private final ClientIngressAgent agent;
    /** The most a data message packs before it is sent: about one datagram. */
    private final int packLimit;
    private final FrameEncoder encoder = new FrameEncoder();
    private final UnsafeBuffer sealed;
    private final UnsafeBuffer small = new UnsafeBuffer(new byte[256]);
    /** Sessions with a batch to send at the end of this duty cycle. */
    private final List<ClientSession> dirty = new ArrayList<>();

    ClientOutbound(final ClientIngressAgent agent, final int packLimit)
    {
        this.agent = agent;
        this.packLimit = packLimit;
        this.sealed = new UnsafeBuffer(new byte[agent.maxMessage]);
    }

    /** A session ended: nothing of it is sent any more. */
    void forget(final ClientSession session)
    {
        dirty.remove(session);
    }

    void forward(final ClientSession session, final Envelope envelope)
    {
        if (!session.isOpen())
        {
            agent.count(ClientCounter.REPLIES_AFTER_END);
            return;
        }
        if (envelope.type() == Terminated.TYPE && envelope.event() instanceof Terminated terminated)
        {
            failAsksTo(session, terminated.actor());
            return;
        }
        final WirePayload payload = envelope.payload();
        final Object event = payload == null || envelope.type() == Undelivered.TYPE ? envelope.event() : null;
        final long cookie = event instanceof Undelivered notice ? notice.cookie() : envelope.cookie();
        if (cookie != 0 && !freeAsk(session, cookie))
        {
            agent.count(ClientCounter.LATE_REPLIES);
            return;
        }
        final boolean written;
        if (payload != null && !(event instanceof Undelivered))
        {
            written = append(session, payload.typeId(), envelope.sender(), cookie, payload.buffer(), 0,
                payload.length());
        }
        else
        {
            written = appendEvent(session, envelope.type(), envelope.sender(), cookie, event);
        }
        if (written)
        {
            agent.count(ClientCounter.REPLIES_OUT);
        }
        else
        {
            agent.count(ClientCounter.REPLIES_UNENCODABLE);
            if (cookie != 0)
            {
                notice(session, ActorId.NONE, envelope.type(), cookie, UndeliveredReason.REFUSED);
            }
        }
    }

    /**
     * Writes an event of the node's own to a client (the cluster's endpoints), from no actor.
     *
     * @return false if the session's batch has no room now: try again later.
     */
    boolean push(final ClientSession session, final int type, final Object event)
    {
        return session.isOpen() && appendEvent(session, type, ActorId.NONE, 0L, event);
    }

    /** Tells a client why its event went nowhere, freeing the ask's slot if it was an ask. */
    void notice(final ClientSession session, final ActorId recipient, final int type, final long cookie,
        final UndeliveredReason reason)
    {
        freeAsk(session, cookie);
        tell(session, recipient, type, cookie, reason);
    }

    /** Tells a client why its event went nowhere, and leaves any ask slot of that cookie as it is. */
    void tell(final ClientSession session, final ActorId recipient, final int type, final long cookie,
        final UndeliveredReason reason)
    {
        tell(session, recipient, type, cookie, reason, false);
    }

    private void tell(final ClientSession session, final ActorId recipient, final int type, final long cookie,
        final UndeliveredReason reason, final boolean unsure)
    {
        if (appendEvent(session, Undelivered.TYPE, ActorId.NONE, cookie,
            new Undelivered(recipient, type, cookie, reason, unsure)))
        {
            agent.count(ClientCounter.NOTICES_OUT);
        }
    }

    /**
     * An actor the client's asks went to is gone: each ask still waiting for it fails now, as delivered and maybe
     * handled ({@code Undelivered(ACTOR_UNKNOWN, unsure)}), rather than at its timeout.
     */
    private void failAsksTo(final ClientSession session, final ActorId target)
    {
        for (final AskTargets.Ask ask : session.askTargets.takeAsksTo(target))
        {
            if (freeAsk(session, ask.cookie()))
            {
                agent.count(ClientCounter.ASKS_TARGET_GONE);
                tell(session, target, ask.type(), ask.cookie(), UndeliveredReason.ACTOR_UNKNOWN, true);
            }
        }
    }

    boolean freeAsk(final ClientSession session, final long cookie)
    {
        if (cookie == 0 || session.asks.remove(cookie) == session.asks.missingValue())
        {
            return false;
        }
        session.askTargets.remove(cookie);
        agent.pendingAsks.decrementAndGet();
        session.stats.asksPending(session.asks.size());
        return true;
    }

    @SuppressWarnings("unchecked")
    private boolean appendEvent(final ClientSession session, final int declaredType, final ActorId sender,
        final long cookie, final Object event)
    {
        if (event == null)
        {
            return false;
        }
        EventCodec<Object> codec = declaredType == EventTypes.BY_CLASS ? null :
            (EventCodec<Object>)agent.codecs.codec(declaredType);
        if (codec == null || !codec.eventClass().isInstance(event))
        {
            codec = (EventCodec<Object>)agent.codecs.codecFor(event.getClass());
        }
        if (codec == null)
        {
            return false;
        }
        final int payloadLength = codec.encodedLength(event);
        final int frameLength = WireFormat.envelopeLength(payloadLength, false);
        if (!reserve(session, frameLength))
        {
            return false;
        }
        final int at = session.batchLength + ClientProtocol.LENGTH_PREFIX;
        final int payloadAt = encoder.beginEnvelope(session.batch, at, ActorId.NONE, sender, codec.typeId(), 0, cookie,
            0, 0L, 0, null, payloadLength);
        codec.encode(event, session.batch, payloadAt);
        commit(session, frameLength);
        return true;
    }

    private boolean append(final ClientSession session, final int type, final ActorId sender, final long cookie,
        final DirectBuffer payload, final int offset, final int length)
    {
        final int frameLength = WireFormat.envelopeLength(length, false);
        if (!reserve(session, frameLength))
        {
            return false;
        }
        final int at = session.batchLength + ClientProtocol.LENGTH_PREFIX;
        final int payloadAt = encoder.beginEnvelope(session.batch, at, ActorId.NONE, sender, type, 0, cookie, 0, 0L, 0,
            null, length);
        session.batch.putBytes(payloadAt, payload, offset, length);
        commit(session, frameLength);
        return true;
    }

    /**
     * Makes room for a frame in the session's batch, sending what it holds first if need be; false if it can never fit.
     */
    private boolean reserve(final ClientSession session, final int frameLength)
    {
        final int needed = ClientProtocol.LENGTH_PREFIX + frameLength;
        if (needed > agent.batchCapacity)
        {
            return false;
        }
        if (session.batchLength > 0 && session.batchLength + needed > packLimit)
        {
            flush(session);
        }
        return true;
    }

    private void commit(final ClientSession session, final int frameLength)
    {
        if (session.batchLength == 0)
        {
            dirty.add(session);
        }
        ClientProtocol.putLength(session.batch, session.batchLength, frameLength);
        session.batchLength += ClientProtocol.LENGTH_PREFIX + frameLength;
    }

    int flushDirty()
    {
        final int flushed = dirty.size();
        for (int i = 0; i < flushed; i++)
        {
            flush(dirty.get(i));
        }
        dirty.clear();
        return flushed;
    }

    /** Seals the session's batch and offers it; a push-back keeps it, in order, for later (bounded: then dropped). */
    void flush(final ClientSession session)
    {
        if (session.batchLength == 0 || !session.isOpen())
        {
            session.batchLength = 0;
            return;
        }
        if (!session.pending.isEmpty() && !drainPending(session) &&
            session.pending.size() >= ClientSession.MAX_PENDING_MESSAGES)
        {
            agent.count(ClientCounter.REPLIES_DROPPED); // unsealed, so no sequence number is lost
            session.batchLength = 0;
            return;
        }
        final int length = session.sealer.seal(FrameSeal.DATA, agent.dataStreamId, session.batch, 0,
            session.batchLength, sealed);
        session.batchLength = 0;
        session.sealer.sent(FrameSeal.DATA); // the number is used now: sent below, or kept in order
        if (session.pending.isEmpty() && session.data != null && session.data.offer(sealed, 0, length) > 0)
        {
            session.stats.messageOut();
            return;
        }
        final byte[] copy = new byte[length];
        sealed.getBytes(0, copy);
        session.pending.addLast(copy);
    }

    /** Offers the messages a push-back kept; true once none is left. */
    boolean drainPending(final ClientSession session)
    {
        while (!session.pending.isEmpty())
        {
            if (session.data == null)
            {
                return false;
            }
            final byte[] message = session.pending.peekFirst();
            if (session.data.offer(new UnsafeBuffer(message)) <= 0)
            {
                return false;
            }
            session.pending.pollFirst();
            session.stats.messageOut();
        }
        return true;
    }

    enum ControlKind
    {
        HEARTBEAT, GOODBYE
    }

    boolean sendControl(final ClientSession session, final ControlKind kind, final GoodbyeReason reason,
        final String detail)
    {
        final int length = kind == ControlKind.HEARTBEAT ?
            encoder.encodeHeartbeat(small, 0, agent.nodeId, agent.incarnation, agent.nowNs(),
                ++session.heartbeatSequence, 0L, 0L) :
            encoder.encodeGoodbye(small, 0, agent.nodeId, agent.incarnation, reason,
                detail.length() > 200 ? detail.substring(0, 200) : detail);
        if (session.control == null)
        {
            return false;
        }
        final int sealedLength = session.sealer.seal(FrameSeal.CONTROL, agent.controlStreamId, small, 0, length,
            sealed);
        if (session.control.offer(sealed, 0, sealedLength) > 0)
        {
            session.sealer.sent(FrameSeal.CONTROL);
            return true;
        }
        return false;
    }
}
