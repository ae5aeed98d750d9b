package io.troupe.serialization;

import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.WirePayload;
import io.troupe.serialization.internal.sbe.EnvelopeDecoder;
import org.agrona.MutableDirectBuffer;

/**
 * A received envelope frame: addressing, credit account reference and cost, and the payload bytes.
 * Reading the raw ids and the payload in place allocates nothing.
 */
public final class EnvelopeFrame extends Frame
{
    private final EnvelopeDecoder decoder = new EnvelopeDecoder();

    EnvelopeFrame()
    {
    }

    @Override
    void onWrap()
    {
        decoder.wrap(buffer, blockOffset, blockLength, version);
    }

    /**
     * The recipient's first long ({@link ActorId#raw1()}).
     *
     * @return raw1.
     */
    public long recipientRaw1()
    {
        return decoder.recipientRaw1();
    }

    /**
     * The recipient's second long ({@link ActorId#raw2()}).
     *
     * @return raw2.
     */
    public long recipientRaw2()
    {
        return decoder.recipientRaw2();
    }

    /**
     * The sender's first long.
     *
     * @return raw1.
     */
    public long senderRaw1()
    {
        return decoder.senderRaw1();
    }

    /**
     * The sender's second long.
     *
     * @return raw2.
     */
    public long senderRaw2()
    {
        return decoder.senderRaw2();
    }

    /**
     * The recipient as an id (allocates).
     *
     * @return the recipient.
     */
    public ActorId recipient()
    {
        return ActorId.fromRaw(decoder.recipientRaw1(), decoder.recipientRaw2());
    }

    /**
     * The sender as an id (allocates).
     *
     * @return the sender.
     */
    public ActorId sender()
    {
        return ActorId.fromRaw(decoder.senderRaw1(), decoder.senderRaw2());
    }

    /**
     * The event's type id.
     *
     * @return the type.
     */
    public int eventType()
    {
        return decoder.eventType();
    }

    /**
     * The envelope's flags.
     *
     * @return the flags.
     */
    public int flags()
    {
        return decoder.flags();
    }

    /**
     * The sender's cookie.
     *
     * @return the cookie.
     */
    public long cookie()
    {
        return decoder.cookie();
    }

    /**
     * The node that owns the credit account the event is charged to.
     *
     * @return the owner node id.
     */
    public int accountOwnerNode()
    {
        return decoder.accountOwnerNode();
    }

    /**
     * The credit account the event is charged to, on its owner node.
     *
     * @return the account id.
     */
    public long accountId()
    {
        return decoder.accountId();
    }

    /**
     * The cost charged to the account.
     *
     * @return the cost.
     */
    public int cost()
    {
        return decoder.cost();
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
     * Builds the envelope to deliver: ids, type, flags and cookie, and a copy of the payload that the recipient
     * decodes lazily, on its own thread, with the codec the registry has for the type (see
     * {@link Envelope#event()}). Allocates the envelope, its ids and the payload copy.
     *
     * @param codecs the node's codecs; a type without a codec still arrives, and fails clearly when decoded.
     * @return the envelope.
     */
    public Envelope toEnvelope(final EventCodecRegistry codecs)
    {
        final int type = decoder.eventType();
        final WirePayload payload = WirePayload.copyOf(type, buffer, varOffsets[0], varLengths[0], codecs.codec(type));
        return new Envelope(recipient(), sender(), type, decoder.flags(), decoder.cookie(), payload, null);
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
