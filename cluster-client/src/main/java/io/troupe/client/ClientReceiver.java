package io.troupe.client;

import io.aeron.logbuffer.Header;
import io.troupe.actor.EventTypes;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredException;
import io.troupe.interconnect.seal.FrameSeal;
import io.troupe.registry.ClusterEndpoints;
import io.troupe.registry.LookupResult;
import io.troupe.registry.ServiceDown;
import io.troupe.registry.ServiceInstance;
import io.troupe.registry.ServiceUp;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.wire.ClientProtocol;
import io.troupe.serialization.wire.EnvelopeCompaction;
import io.troupe.serialization.wire.EnvelopeFrame;
import io.troupe.serialization.wire.FrameDecoder;
import io.troupe.serialization.wire.FrameHandler;
import io.troupe.serialization.wire.FrameResult;
import io.troupe.serialization.wire.GoodbyeFrame;
import io.troupe.serialization.wire.HandshakeFrame;
import io.troupe.serialization.wire.HandshakePhase;
import io.troupe.serialization.wire.HeartbeatFrame;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;

/**
 * The client's receive side, on its thread: the node's handshake steps (a WELCOME is checked by the
 * {@link NodeLink}, a REFUSE fails the attempt with the node's reason), and the current session's sealed messages
 * (anything else is dropped and counted): heartbeats, a goodbye, and envelopes that complete asks (replies,
 * {@code Undelivered} notices, lookup results), reach the undelivered listener, or the service listeners.
 */
final class ClientReceiver
{
    private final ClientAgent agent;
    private final FrameDecoder controlDecoder;
    private final FrameDecoder dataDecoder;
    private final UnsafeBuffer opened;
    /** Where compact frames are rebuilt whole. */
    private final UnsafeBuffer expanded;
    private final ClientProtocol.FrameSink dataFrameSink = this::onDataFrame;
    /** The Aeron session of the message being read. */
    private int readingSession;

    ClientReceiver(final ClientAgent agent, final int maxMessage)
    {
        this.agent = agent;
        this.opened = new UnsafeBuffer(new byte[maxMessage]);
        this.expanded = new UnsafeBuffer(new byte[maxMessage + EnvelopeCompaction.FIXED_LENGTH]);
        this.controlDecoder = new FrameDecoder(new ControlFrames(), maxMessage);
        this.dataDecoder = new FrameDecoder(new DataFrames(), maxMessage);
    }

    void onControlMessage(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        readingSession = header.sessionId();
        if (FrameSeal.keyId(buffer, offset, length) < 0)
        {
            if (controlDecoder.decode(buffer, offset, length) != FrameResult.OK)
            {
                agent.counters.framesRejected.incrementAndGet();
            }
            return;
        }
        final int bodyLength = open(FrameSeal.CONTROL, agent.config.controlStreamId(), buffer, offset, length, header);
        if (bodyLength >= 0 && controlDecoder.decode(opened, FrameSeal.HEADER, bodyLength) != FrameResult.OK)
        {
            agent.counters.framesRejected.incrementAndGet();
        }
    }

    void onDataMessage(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        readingSession = header.sessionId();
        final int bodyLength = open(FrameSeal.DATA, agent.config.dataStreamId(), buffer, offset, length, header);
        if (bodyLength < 0)
        {
            return;
        }
        if (!ClientProtocol.unpack(opened, FrameSeal.HEADER, FrameSeal.HEADER + bodyLength, expanded, dataFrameSink))
        {
            agent.counters.framesRejected.incrementAndGet();
        }
    }

    private void onDataFrame(final DirectBuffer buffer, final int offset, final int length)
    {
        if (dataDecoder.decode(buffer, offset, length) != FrameResult.OK)
        {
            agent.counters.framesRejected.incrementAndGet();
        }
    }

    /** Opens a sealed message of the current session into {@link #opened}; -1 if it is not one. */
    private int open(final int stream, final int streamId, final DirectBuffer buffer, final int offset,
        final int length, final Header header)
    {
        final NodeLink current = agent.link;
        if (current == null || current.opener == null || header.sessionId() != current.nodeAeronSession ||
            length > opened.capacity() || FrameSeal.keyId(buffer, offset, length) != current.opener.keyId())
        {
            agent.counters.framesRejected.incrementAndGet(); // an earlier session's, or nobody's
            return -1;
        }
        final int bodyLength = current.opener.open(stream, streamId, buffer, offset, length, opened);
        if (bodyLength == FrameSeal.GAP)
        {
            agent.sessionLost("a message from the node went missing");
            return -1;
        }
        if (bodyLength < 0)
        {
            agent.counters.framesRejected.incrementAndGet();
            return -1;
        }
        current.lastHeardNs = agent.nowNs;
        if (current.state == NodeLink.State.CONFIRMED)
        {
            agent.opened();
        }
        return bodyLength;
    }

    private void onEnvelope(final EnvelopeFrame frame)
    {
        final int type = frame.eventType();
        final long cookie = frame.cookie();
        final EventCodec<?> codec = agent.codecs.codec(type);
        final Object event;
        try
        {
            event = codec == null ? null : codec.decode(frame.buffer(), frame.payloadOffset(), frame.payloadLength());
        }
        catch (final RuntimeException ex)
        {
            agent.counters.framesRejected.incrementAndGet();
            final PendingAsk ask = cookie == 0 ? null : agent.pending.remove(cookie);
            if (ask != null)
            {
                ask.future.completeExceptionally(ex);
            }
            return;
        }
        if (event instanceof Undelivered notice)
        {
            final PendingAsk ask = notice.cookie() == 0 ? null : agent.pending.remove(notice.cookie());
            if (ask != null)
            {
                ask.future.completeExceptionally(new UndeliveredException(notice));
            }
            else if (notice.cookie() == 0)
            {
                agent.undelivered(notice);
            }
            return;
        }
        if (cookie != 0)
        {
            final PendingAsk ask = agent.pending.remove(cookie);
            if (ask == null)
            {
                agent.counters.lateReplies.incrementAndGet();
            }
            else if (event == null)
            {
                ask.future.completeExceptionally(new IllegalStateException("the reply to ask " + cookie +
                    " is of type " + EventTypes.describe(type) + ", which this client has no codec for"));
            }
            else if (ask.replyType != null && !ask.replyType.isInstance(event))
            {
                ask.future.completeExceptionally(new ClassCastException("the reply from " + ask.target + " is a " +
                    event.getClass().getName() + ", not the " + ask.replyType.getName() + " asked for"));
            }
            else
            {
                agent.counters.replies.incrementAndGet();
                ask.future.complete(event instanceof LookupResult result ? result.instances() : event);
            }
            return;
        }
        if (event instanceof ServiceUp up)
        {
            notifyWatches(up.instance(), true);
        }
        else if (event instanceof ClusterEndpoints endpoints)
        {
            agent.learnEndpoints(endpoints);
        }
        else if (event instanceof ServiceDown down)
        {
            notifyWatches(down.instance(), false);
        }
        else
        {
            agent.counters.unsolicited.incrementAndGet();
        }
    }

    private void notifyWatches(final ServiceInstance instance, final boolean up)
    {
        final List<TroupeClient.Watch> list = agent.watches.get(instance.service().onNode(0));
        if (list == null)
        {
            return;
        }
        for (final TroupeClient.Watch watch : list)
        {
            watch.deliver(instance, up);
        }
    }

    /** Handshake steps (unsealed) and, in a session, heartbeats and goodbyes. */
    private final class ControlFrames implements FrameHandler
    {
        @Override
        public void onEnvelope(final EnvelopeFrame frame)
        {
            agent.counters.framesRejected.incrementAndGet();
        }

        @Override
        public void onHandshake(final HandshakeFrame frame)
        {
            final NodeLink current = agent.link;
            if (current == null)
            {
                return;
            }
            if (frame.phase() == HandshakePhase.WELCOME)
            {
                final String distrust = current.onWelcome(agent, frame, readingSession);
                if (distrust != null)
                {
                    agent.attemptFailed(distrust, true);
                }
            }
            else if (frame.phase() == HandshakePhase.REFUSE && frame.peerNodeId() == agent.clientId &&
                frame.peerIncarnation() == current.incarnation && !current.isOpen())
            {
                agent.attemptFailed(frame.detail(), true);
            }
        }

        @Override
        public void onHeartbeat(final HeartbeatFrame frame)
        {
            // lastHeardNs is set by opening the message
        }

        @Override
        public void onGoodbye(final GoodbyeFrame frame)
        {
            if (agent.link != null && agent.link.isOpen())
            {
                agent.sessionLost("the node said goodbye (" + frame.reason() + ": " + frame.detail() + ')');
            }
        }
    }

    /** The node's envelopes: replies, notices, results. */
    private final class DataFrames implements FrameHandler
    {
        @Override
        public void onEnvelope(final EnvelopeFrame frame)
        {
            ClientReceiver.this.onEnvelope(frame);
        }
    }
}
