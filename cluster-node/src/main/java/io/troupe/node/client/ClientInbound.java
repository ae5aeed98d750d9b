package io.troupe.node.client;

import io.troupe.actor.spi.ActorSystemSpi;
import io.aeron.Image;
import io.aeron.ImageControlledFragmentAssembler;
import io.aeron.Subscription;
import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.logbuffer.Header;
import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.EventTypes;
import io.troupe.actor.ServiceId;
import io.troupe.actor.UndeliveredReason;
import io.troupe.actor.WirePayload;
import io.troupe.interconnect.seal.FrameSeal;
import io.troupe.registry.Lookup;
import io.troupe.registry.ServiceInstance;
import io.troupe.registry.Subscribe;
import io.troupe.registry.Unsubscribe;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.wire.ClientProtocol;
import io.troupe.serialization.wire.EnvelopeCompaction;
import io.troupe.serialization.wire.EnvelopeFrame;
import io.troupe.serialization.wire.FrameDecoder;
import io.troupe.serialization.wire.FrameHandler;
import io.troupe.serialization.wire.FrameResult;
import io.troupe.serialization.wire.GoodbyeFrame;
import io.troupe.serialization.wire.GoodbyeReason;
import io.troupe.serialization.wire.HandshakeFrame;
import io.troupe.serialization.wire.HeartbeatFrame;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;
import java.util.Optional;

/**
 * What the client ingress reads: the control stream's messages (unsealed handshake steps, handed to
 * {@link ClientHandshakes}; sealed heartbeats and goodbyes of open sessions) and, for each open session whose credit
 * account is clear, its data stream: sealed messages of envelope frames (compact ones expanded), each checked (a type
 * a client may send, with a codec here; room for another ask) and sent into the actor system as the session's proxy,
 * tracked and charged to the session's account. Owned by the ingress agent's thread.
 */
final class ClientInbound
{
    private final ClientIngressAgent agent;
    private final FrameDecoder controlDecoder;
    private final FrameDecoder dataDecoder;
    private final UnsafeBuffer opened;
    /** Where compact frames are rebuilt whole. */
    private final UnsafeBuffer expanded;
    private final ClientProtocol.FrameSink dataFrameSink = this::onDataFrame;
    /** The session whose stream is being read, and the Aeron session of the control message being read. */
    private ClientSession current;
    private int currentAeronSession;

    ClientInbound(final ClientIngressAgent agent)
    {
        this.agent = agent;
        this.opened = new UnsafeBuffer(new byte[agent.maxMessage]);
        this.expanded = new UnsafeBuffer(new byte[agent.maxMessage + EnvelopeCompaction.FIXED_LENGTH]);
        this.controlDecoder = new FrameDecoder(new ControlFrames(), agent.maxMessage);
        this.dataDecoder = new FrameDecoder(new DataFrames(), agent.maxMessage);
    }

    /** Reads each open session whose account is clear, a poll's worth; the count of messages read. */
    int pollClients(final List<ClientSession> sessionList, final Subscription dataSubscription)
    {
        int work = 0;
        for (int i = 0; i < sessionList.size(); i++)
        {
            final ClientSession session = sessionList.get(i);
            if (!session.isOpen() || !clear(session))
            {
                continue;
            }
            if (session.dataImage == null || session.dataImage.isClosed())
            {
                final Image image = dataSubscription.imageBySessionId(session.aeronSessionId);
                if (image == null)
                {
                    continue;
                }
                session.dataImage = image;
                session.assembler = new ImageControlledFragmentAssembler(this::onDataMessage);
            }
            current = session;
            work += session.dataImage.controlledPoll(session.assembler, agent.config.pollBatch());
            current = null;
        }
        return work;
    }

    /** Whether a session's account lets its stream be read; when it does not, its proxy waits for FundsCleared. */
    private boolean clear(final ClientSession session)
    {
        if (session.account.isClear())
        {
            session.throttled = false;
            return true;
        }
        if (!session.throttled)
        {
            session.throttled = true;
            agent.count(ClientCounter.THROTTLED);
            return session.account.ensureClearFunds(session.proxy); // a repayment in between: read on
        }
        return false;
    }

    void onControlMessage(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        final int aeronSession = header.sessionId();
        if (FrameSeal.keyId(buffer, offset, length) < 0)
        {
            currentAeronSession = aeronSession;
            if (controlDecoder.decode(buffer, offset, length) != FrameResult.OK)
            {
                agent.count(ClientCounter.FRAMES_MALFORMED);
            }
            return;
        }
        final ClientSession session = agent.session(aeronSession);
        if (session == null || !session.isOpen())
        {
            agent.count(ClientCounter.FRAMES_UNKNOWN_SESSION);
            return;
        }
        final int bodyLength = open(session, FrameSeal.CONTROL, agent.controlStreamId, buffer, offset, length);
        if (bodyLength < 0)
        {
            return;
        }
        current = session;
        if (controlDecoder.decode(opened, FrameSeal.HEADER, bodyLength) != FrameResult.OK)
        {
            agent.count(ClientCounter.FRAMES_MALFORMED);
        }
        current = null;
    }

    /**
     * One message of a client's data stream; left in the image (ABORT) once the session's account is in debt, so
     * that what the node holds for a client is its threshold and at most one message more.
     */
    private ControlledFragmentHandler.Action onDataMessage(final DirectBuffer buffer, final int offset,
        final int length, final Header header)
    {
        final ClientSession session = current;
        if (!session.isOpen() || !session.account.isClear())
        {
            return ControlledFragmentHandler.Action.ABORT;
        }
        final int bodyLength = open(session, FrameSeal.DATA, agent.dataStreamId, buffer, offset, length);
        if (bodyLength >= 0 &&
            !ClientProtocol.unpack(opened, FrameSeal.HEADER, FrameSeal.HEADER + bodyLength, expanded, dataFrameSink))
        {
            agent.count(ClientCounter.FRAMES_MALFORMED);
        }
        return ControlledFragmentHandler.Action.CONTINUE;
    }

    private void onDataFrame(final DirectBuffer buffer, final int offset, final int length)
    {
        if (current.isOpen() && dataDecoder.decode(buffer, offset, length) != FrameResult.OK)
        {
            agent.count(ClientCounter.FRAMES_MALFORMED);
        }
    }

    /** Opens a sealed message into {@link #opened}; the body's length, or -1 after counting (and acting on) why not. */
    private int open(final ClientSession session, final int stream, final int streamId, final DirectBuffer buffer,
        final int offset, final int length)
    {
        if (length > opened.capacity() || FrameSeal.keyId(buffer, offset, length) != session.opener.keyId())
        {
            agent.count(ClientCounter.FRAMES_BAD_TAG);
            return -1;
        }
        final int bodyLength = session.opener.open(stream, streamId, buffer, offset, length, opened);
        if (bodyLength >= 0)
        {
            session.lastHeardNs = agent.nowNs();
            return bodyLength;
        }
        if (bodyLength == FrameSeal.GAP)
        {
            agent.count(ClientCounter.FRAMES_GAP);
            agent.endSession(session, "a message of its stream went missing", GoodbyeReason.PROTOCOL_ERROR);
        }
        else
        {
            agent.count(bodyLength == FrameSeal.REPLAYED ? ClientCounter.FRAMES_REPLAYED :
                ClientCounter.FRAMES_BAD_TAG);
        }
        return -1;
    }

    private void acceptEvent(final ClientSession session, final EnvelopeFrame frame)
    {
        final int type = frame.eventType();
        final long cookie = frame.cookie();
        final ActorId recipient = frame.recipient();
        final boolean directory = type == Lookup.TYPE || type == Subscribe.TYPE || type == Unsubscribe.TYPE;
        final EventCodec<?> codec = agent.codecs.codec(type);
        if (codec == null || !directory && EventTypes.spaceOf(type) < EventTypes.SPACE_USER_FIRST)
        {
            agent.count(ClientCounter.EVENTS_REFUSED);
            agent.outbound.notice(session, recipient, type, cookie, UndeliveredReason.REFUSED);
            return;
        }
        if (cookie != 0)
        {
            if (session.asks.size() >= agent.config.maxPendingAsks())
            {
                agent.count(ClientCounter.ASKS_SHED);
                agent.outbound.notice(session, recipient, type, cookie, UndeliveredReason.SHED);
                return;
            }
            if (session.asks.containsKey(cookie))
            {
                // an ask id still in use: the client broke its own rule; the first ask keeps its slot, so that
                // repeating an id never frees room beyond max-pending-asks
                agent.count(ClientCounter.EVENTS_REFUSED);
                agent.outbound.tell(session, recipient, type, cookie, UndeliveredReason.REFUSED);
                return;
            }
            session.asks.put(cookie, agent.nowNs() + agent.askTimeoutNs);
            agent.pendingAsks.incrementAndGet();
            session.stats.askIn();
            session.stats.asksPending(session.asks.size());
            agent.count(ClientCounter.ASKS_IN);
        }
        if ((type == Subscribe.TYPE || type == Unsubscribe.TYPE) && !admitSubscription(session, codec, frame))
        {
            agent.count(ClientCounter.EVENTS_REFUSED);
            agent.outbound.notice(session, recipient, type, cookie, UndeliveredReason.REFUSED);
            return;
        }
        final ActorId target = directory ? agent.registry.actor() : resolve(recipient);
        if (target == null || target.isNone())
        {
            agent.count(ClientCounter.EVENTS_UNADDRESSED);
            agent.outbound.notice(session, recipient, type, cookie, UndeliveredReason.ACTOR_UNKNOWN);
            return;
        }
        if (cookie != 0 && session.askTargets.add(cookie, target, type))
        {
            // the proxy watches the actor: if it goes before it answers, the ask fails at once (order does not
            // matter: a watch that finds it gone already answers at once)
            ActorSystemSpi.of(agent.system).send(new Envelope(session.proxy, ActorId.NONE, 0, 0, 0L,
                new ClientProxy.Watch(target), null));
        }
        final Envelope envelope = new Envelope(target, session.proxy, type, Envelope.FLAG_TRACK_DELIVERY, cookie,
            WirePayload.copyOf(type, frame.buffer(), frame.payloadOffset(), frame.payloadLength(), codec), null);
        envelope.chargeTo(session.account, agent.system.flow().costOf(type));
        session.stats.eventIn();
        agent.count(ClientCounter.EVENTS_IN);
        ActorSystemSpi.of(agent.system).send(
            envelope); // refused while shutting down: tracked, so the proxy hears Undelivered(SHUTDOWN)
    }

    /**
     * Keeps a client's subscriptions bounded ({@link ClientSession#MAX_SUBSCRIPTIONS} names): each is an entry in the
     * node's directory. False for a subscription beyond the bound, or one that does not decode.
     */
    private static boolean admitSubscription(final ClientSession session, final EventCodec<?> codec,
        final EnvelopeFrame frame)
    {
        final Object request;
        try
        {
            request = codec.decode(frame.buffer(), frame.payloadOffset(), frame.payloadLength());
        }
        catch (final RuntimeException ex)
        {
            return false;
        }
        if (request instanceof Unsubscribe unsubscribe)
        {
            session.subscriptions.remove(unsubscribe.service().onNode(0));
            return true;
        }
        final ServiceId name = ((Subscribe)request).service().onNode(0);
        return session.subscriptions.contains(name) || session.subscriptions.size() < ClientSession.MAX_SUBSCRIPTIONS &&
            session.subscriptions.add(name);
    }

    /** A service id of no node stands for any node's instance: this node's if it has one (as the registry picks). */
    private ActorId resolve(final ActorId recipient)
    {
        if (recipient.isService() && recipient.nodeId() == 0 && agent.registry != null)
        {
            final Optional<ServiceInstance> instance = agent.registry.pickLocalFirst((ServiceId)recipient);
            if (instance.isPresent())
            {
                return instance.get().actor();
            }
        }
        return recipient;
    }

    /** Control frames: handshake steps (unsealed), and heartbeats and goodbyes of an open session. */
    private final class ControlFrames implements FrameHandler
    {
        @Override
        public void onEnvelope(final EnvelopeFrame frame)
        {
            agent.count(ClientCounter.FRAMES_MALFORMED); // events go on the data stream
        }

        @Override
        public void onHandshake(final HandshakeFrame frame)
        {
            if (current != null)
            {
                agent.count(ClientCounter.FRAMES_MALFORMED); // sealed handshake steps: none
                return;
            }
            if (!agent.isIntakeStopped())
            {
                agent.handshakes.onStep(frame, currentAeronSession, agent.nowNs());
            }
        }

        @Override
        public void onHeartbeat(final HeartbeatFrame frame)
        {
            if (current == null)
            {
                agent.count(ClientCounter.FRAMES_UNKNOWN_SESSION); // unsealed: proves nothing
            }
        }

        @Override
        public void onGoodbye(final GoodbyeFrame frame)
        {
            if (current == null)
            {
                agent.count(ClientCounter.FRAMES_UNKNOWN_SESSION);
                return;
            }
            agent.count(ClientCounter.GOODBYES_RECEIVED);
            agent.endSession(current, "it said goodbye (" + frame.reason() + ')', null);
        }
    }

    /** Data frames of an open session: envelopes only. */
    private final class DataFrames implements FrameHandler
    {
        @Override
        public void onEnvelope(final EnvelopeFrame frame)
        {
            acceptEvent(current, frame);
        }

        @Override
        public void onHandshake(final HandshakeFrame frame)
        {
            agent.count(ClientCounter.FRAMES_MALFORMED);
        }
    }
}
