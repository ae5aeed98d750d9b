package io.troupe.serialization.wire;

import io.troupe.actor.EventDecoder;
import io.troupe.serialization.EventCodecRegistry;

import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.WirePayload;
import io.troupe.serialization.internal.sbe.EnvelopeDecoder;
import io.troupe.serialization.internal.sbe.ForwardedEnvelopeDecoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A received envelope frame: addressing, credit account reference and cost, the payload bytes, and for a
 * forwarded envelope (template ForwardedEnvelope, since version 5) the forward-on-nondelivery target. Reading
 * the raw ids and the payload in place allocates nothing.
 */
public final class EnvelopeFrame extends Frame
{
    // Field offsets in the block, from the schema. Every field exists since version 1 and the decoder checked
    // that the block holds them all, so the getters read without a further bounds check.
    private static final int RECIPIENT_RAW1 = EnvelopeDecoder.recipientRaw1EncodingOffset();
    private static final int RECIPIENT_RAW2 = EnvelopeDecoder.recipientRaw2EncodingOffset();
    private static final int SENDER_RAW1 = EnvelopeDecoder.senderRaw1EncodingOffset();
    private static final int SENDER_RAW2 = EnvelopeDecoder.senderRaw2EncodingOffset();
    private static final int COOKIE = EnvelopeDecoder.cookieEncodingOffset();
    private static final int ACCOUNT_ID = EnvelopeDecoder.accountIdEncodingOffset();
    private static final int EVENT_TYPE = EnvelopeDecoder.eventTypeEncodingOffset();
    private static final int FLAGS = EnvelopeDecoder.flagsEncodingOffset();
    private static final int ACCOUNT_OWNER_NODE = EnvelopeDecoder.accountOwnerNodeEncodingOffset();
    private static final int COST = EnvelopeDecoder.costEncodingOffset();
    private static final int FORWARD_RAW1 = ForwardedEnvelopeDecoder.forwardRaw1EncodingOffset();
    private static final int FORWARD_RAW2 = ForwardedEnvelopeDecoder.forwardRaw2EncodingOffset();

    private boolean forwarded;
    /**
     * The codec {@link #toEnvelope} found last, for the registry and type it was found for: a stream of one type
     * (the usual case) looks its codec up once, not once per frame. Registries are immutable, so it never goes stale;
     * a frame flyweight is used by one thread at a time, so neither does anyone else see it.
     */
    private EventCodecRegistry lastRegistry;
    private int lastType;
    private EventDecoder<?> lastCodec;

    EnvelopeFrame()
    {
    }

    @Override
    void onWrap()
    {
    }

    /** The decoder's fast path: the frame and where its validated payload lies. */
    void wrapEnvelope(
        final DirectBuffer buffer,
        final int blockOffset,
        final int blockLength,
        final int version,
        final int frameLength,
        final int payloadOffset,
        final int payloadLength,
        final boolean forwarded)
    {
        this.forwarded = forwarded;
        this.buffer = buffer;
        this.blockOffset = blockOffset;
        this.blockLength = blockLength;
        this.version = version;
        this.frameLength = frameLength;
        varOffsets[0] = payloadOffset;
        varLengths[0] = payloadLength;
    }

    /**
     * The recipient's first long ({@link ActorId#raw1()}).
     *
     * @return raw1.
     */
    public long recipientRaw1()
    {
        return RawAccess.getLong(buffer, blockOffset + RECIPIENT_RAW1);
    }

    /**
     * The recipient's second long ({@link ActorId#raw2()}).
     *
     * @return raw2.
     */
    public long recipientRaw2()
    {
        return RawAccess.getLong(buffer, blockOffset + RECIPIENT_RAW2);
    }

    /**
     * The sender's first long.
     *
     * @return raw1.
     */
    public long senderRaw1()
    {
        return RawAccess.getLong(buffer, blockOffset + SENDER_RAW1);
    }

    /**
     * The sender's second long.
     *
     * @return raw2.
     */
    public long senderRaw2()
    {
        return RawAccess.getLong(buffer, blockOffset + SENDER_RAW2);
    }

    /**
     * The recipient as an id (allocates).
     *
     * @return the recipient.
     */
    public ActorId recipient()
    {
        return ActorId.fromRaw(RawAccess.getLong(buffer, blockOffset + RECIPIENT_RAW1),
            RawAccess.getLong(buffer, blockOffset + RECIPIENT_RAW2));
    }

    /**
     * The sender as an id (allocates).
     *
     * @return the sender.
     */
    public ActorId sender()
    {
        return ActorId.fromRaw(RawAccess.getLong(buffer, blockOffset + SENDER_RAW1),
            RawAccess.getLong(buffer, blockOffset + SENDER_RAW2));
    }

    /**
     * Whether the frame carries a forward-on-nondelivery target (it is a ForwardedEnvelope).
     *
     * @return true if it does.
     */
    public boolean hasForwardTarget()
    {
        return forwarded;
    }

    /**
     * Where the event goes if the recipient does not exist (allocates), or null when the frame carries no target
     * or carries {@link ActorId#NONE}.
     *
     * @return the target, or null.
     */
    public ActorId forwardTo()
    {
        if (!forwarded)
        {
            return null;
        }
        final ActorId target = ActorId.fromRaw(RawAccess.getLong(buffer, blockOffset + FORWARD_RAW1),
            RawAccess.getLong(buffer, blockOffset + FORWARD_RAW2));
        return target.isNone() ? null : target;
    }

    /**
     * The event's type id.
     *
     * @return the type.
     */
    public int eventType()
    {
        return RawAccess.getInt(buffer, blockOffset + EVENT_TYPE);
    }

    /**
     * The envelope's flags.
     *
     * @return the flags.
     */
    public int flags()
    {
        return RawAccess.getInt(buffer, blockOffset + FLAGS);
    }

    /**
     * The sender's cookie.
     *
     * @return the cookie.
     */
    public long cookie()
    {
        return RawAccess.getLong(buffer, blockOffset + COOKIE);
    }

    /**
     * The node that owns the credit account the event is charged to.
     *
     * @return the owner node id.
     */
    public int accountOwnerNode()
    {
        return RawAccess.getInt(buffer, blockOffset + ACCOUNT_OWNER_NODE);
    }

    /**
     * The credit account the event is charged to, on its owner node.
     *
     * @return the account id.
     */
    public long accountId()
    {
        return RawAccess.getLong(buffer, blockOffset + ACCOUNT_ID);
    }

    /**
     * The cost charged to the account.
     *
     * @return the cost.
     */
    public int cost()
    {
        return RawAccess.getInt(buffer, blockOffset + COST);
    }

    /**
     * Where the payload starts in {@link #buffer()}.
     *
     * @return the offset.
     */
    public int payloadOffset()
    {
        return varOffsets[0];
    }

    /**
     * Bytes of the payload (0 for an event without one).
     *
     * @return the length.
     */
    public int payloadLength()
    {
        return varLengths[0];
    }

    /**
     * Copies the payload.
     *
     * @param destination       where to.
     * @param destinationOffset at which offset.
     */
    public void getPayload(final MutableDirectBuffer destination, final int destinationOffset)
    {
        copyVar(0, destination, destinationOffset);
    }

    /**
     * Builds the envelope to deliver: ids, type, flags, cookie and forward target, and a copy of the payload that the
     * recipient decodes lazily, on its own thread, with the codec the registry has for the type (see
     * {@link Envelope#event()}). Allocates the envelope, its ids and the payload copy.
     *
     * @param codecs the node's codecs; a type without a codec still arrives, and fails clearly when decoded.
     * @return the envelope.
     */
    public Envelope toEnvelope(final EventCodecRegistry codecs)
    {
        final int type = RawAccess.getInt(buffer, blockOffset + EVENT_TYPE);
        final WirePayload payload = WirePayload.copyOf(type, buffer, varOffsets[0], varLengths[0], codec(codecs, type));
        return new Envelope(recipient(), sender(), type, RawAccess.getInt(buffer, blockOffset + FLAGS),
            RawAccess.getLong(buffer, blockOffset + COOKIE), payload, forwardTo());
    }

    private EventDecoder<?> codec(final EventCodecRegistry codecs, final int type)
    {
        if (type == lastType && codecs == lastRegistry)
        {
            return lastCodec;
        }
        final EventDecoder<?> codec = codecs.codec(type);
        lastRegistry = codecs;
        lastType = type;
        lastCodec = codec;
        return codec;
    }

    /**
     * Copies the payload into a new array.
     *
     * @return the bytes.
     */
    public byte[] payloadBytes()
    {
        return varBytes(0);
    }
}
