package io.troupe.interconnect;

import io.troupe.actor.ActorId;
import io.troupe.actor.Chargeable;
import io.troupe.actor.Envelope;
import io.troupe.actor.EventTypes;
import io.troupe.actor.WirePayload;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.EventCodecRegistry;
import io.troupe.serialization.wire.FrameEncoder;
import io.troupe.serialization.wire.WireFormat;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The send side's encoding, on each sending thread ({@link Interconnect#send}): an envelope into a pooled
 * {@link OutboundFrame}, its payload copied as it came or encoded with its codec (found by type id, or by class for a
 * typed send, remembered per thread), checked against the largest event this node sends. Thread safe: every sending
 * thread has its own encoder state.
 */
final class OutboundEncoder
{
    private static final ThreadLocal<Encoding> ENCODINGS = ThreadLocal.withInitial(Encoding::new);

    private final EventCodecRegistry codecs;
    private final int largestEventBytes;

    OutboundEncoder(final EventCodecRegistry codecs, final int largestEventBytes)
    {
        this.codecs = codecs;
        this.largestEventBytes = largestEventBytes;
    }

    /** Encodes an envelope into a pooled frame, on the sending thread. */
    @SuppressWarnings("unchecked")
    void encode(final Envelope envelope, final OutboundFrame frame)
    {
        final Encoding encoding = ENCODINGS.get();
        final FrameEncoder encoder = encoding.encoder;
        final UnsafeBuffer buffer = encoding.buffer;
        final WirePayload payload = envelope.payload();
        if (payload != null)
        {
            checkSize(envelope, payload.length());
            frame.wrapForEncoding(WireFormat.envelopeLength(payload.length(),
                FrameEncoder.forwardTarget(envelope) != null), buffer);
            encoder.encodeEnvelope(buffer, 0, envelope, accountOwner(envelope), accountId(envelope),
                envelope.cost(), payload.buffer(), 0, payload.length());
            return;
        }
        final Object event = envelope.event();
        final int declaredType = envelope.type();
        final EventCodec<Object> codec = declaredType == EventTypes.BY_CLASS && event != null ?
            codecByClass(encoding, event.getClass()) : (EventCodec<Object>)codecs.codec(declaredType);
        if (codec == null)
        {
            throw new IllegalArgumentException((declaredType == EventTypes.BY_CLASS ?
                "no codec is registered for event class " + (event == null ? "null" : event.getClass().getName()) :
                "no codec is registered for event type " + EventTypes.describe(declaredType) + " (" +
                (event == null ? "null" : event.getClass().getName()) + ')') +
                ", so it cannot be sent to node " + envelope.recipient().nodeId() +
                "; register one in the node's EventCodecRegistry");
        }
        if (!codec.eventClass().isInstance(event))
        {
            throw new IllegalArgumentException("event type " + EventTypes.describe(declaredType) + " is encoded by " +
                codec.name() + " as " + codec.eventClass().getName() + ", but the event is " +
                (event == null ? "null" : event.getClass().getName()));
        }
        final int payloadLength = codec.encodedLength(event);
        checkSize(envelope, payloadLength);
        final ActorId forwardTo = FrameEncoder.forwardTarget(envelope);
        frame.wrapForEncoding(WireFormat.envelopeLength(payloadLength, forwardTo != null), buffer);
        final int payloadAt = encoder.beginEnvelope(buffer, 0, envelope.recipient(), envelope.sender(), codec.typeId(),
            envelope.flags(), envelope.cookie(), accountOwner(envelope), accountId(envelope), envelope.cost(),
            forwardTo, payloadLength);
        final int written = codec.encode(event, buffer, payloadAt);
        if (written != payloadLength)
        {
            throw new IllegalStateException("codec " + codec.name() + " wrote " + written + " bytes after announcing " +
                payloadLength);
        }
    }

    /** The codec of an event's class (a typed send), remembered per thread for a stream of one class. */
    @SuppressWarnings("unchecked")
    private EventCodec<Object> codecByClass(final Encoding encoding, final Class<?> eventClass)
    {
        if (eventClass == encoding.lastClass && codecs == encoding.lastRegistry)
        {
            return encoding.lastCodec;
        }
        final EventCodec<Object> codec = (EventCodec<Object>)codecs.codecFor(eventClass);
        if (codec != null)
        {
            encoding.lastClass = eventClass;
            encoding.lastRegistry = codecs;
            encoding.lastCodec = codec;
        }
        return codec;
    }

    /** The owner of the account an envelope is charged to, 0 for an uncharged one. */
    private static int accountOwner(final Envelope envelope)
    {
        final Chargeable account = envelope.account();
        return account == null ? 0 : account.ownerNode();
    }

    private static long accountId(final Envelope envelope)
    {
        final Chargeable account = envelope.account();
        return account == null ? 0L : account.accountId();
    }

    private void checkSize(final Envelope envelope, final int payloadLength)
    {
        if (payloadLength > largestEventBytes)
        {
            throw new IllegalArgumentException("event of type " + EventTypes.describe(envelope.type()) + " is " +
                payloadLength + " bytes encoded; at most " + largestEventBytes + " bytes may be sent to another node");
        }
    }

    /** A sending thread's encoding state. */
    private static final class Encoding
    {
        final FrameEncoder encoder = new FrameEncoder();
        final UnsafeBuffer buffer = new UnsafeBuffer();
        /** The last class a typed send was encoded for, in which registry, and its codec. */
        Class<?> lastClass;
        EventCodecRegistry lastRegistry;
        EventCodec<Object> lastCodec;
    }
}
