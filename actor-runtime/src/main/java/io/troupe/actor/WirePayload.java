package io.troupe.actor;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The serialized event of an envelope that arrived from the wire: a private copy of the payload bytes, its type
 * id, the decoder registered for that type (if any), and the event once decoded. An {@link Envelope} whose event
 * is a {@code WirePayload} is <em>serialized</em>; the recipient actor decodes it lazily on its own thread, so the
 * interconnect never runs user decoders.
 *
 * <p>Not thread safe, by design: only the thread that currently owns the envelope (the recipient actor while it
 * handles it) may decode. Handing the envelope on through a mailbox publishes the cached event safely.
 */
public final class WirePayload
{
    private final int typeId;
    private final UnsafeBuffer buffer;
    private final EventDecoder<?> decoder;
    private EventDecoder<?> decodedBy;
    private Object decoded;

    private WirePayload(final int typeId, final UnsafeBuffer buffer, final EventDecoder<?> decoder)
    {
        this.typeId = typeId;
        this.buffer = buffer;
        this.decoder = decoder;
    }

    /**
     * Copies a payload out of a receive buffer, so the buffer can be reused at once.
     *
     * @param typeId         the event's type id.
     * @param src            the buffer the payload was received in.
     * @param offset         where the payload starts in {@code src}.
     * @param length         how many bytes it has, 0 or more.
     * @param decoderOrNull  the decoder registered for {@code typeId}, or null if none is (the recipient must then
     *                       decode with {@link Envelope#event(EventDecoder)}).
     * @return the payload.
     * @throws IllegalArgumentException if the range is not inside {@code src} or the decoder is for another type.
     */
    public static WirePayload copyOf(
        final int typeId,
        final DirectBuffer src,
        final int offset,
        final int length,
        final EventDecoder<?> decoderOrNull)
    {
        if (offset < 0 || length < 0 || (long)offset + length > src.capacity())
        {
            throw new IllegalArgumentException("payload range offset=" + offset + " length=" + length +
                " is not inside a buffer of capacity " + src.capacity());
        }
        if (decoderOrNull != null && decoderOrNull.typeId() != typeId)
        {
            throw new IllegalArgumentException("decoder for type " + EventTypes.describe(decoderOrNull.typeId()) +
                " given for a payload of type " + EventTypes.describe(typeId));
        }
        final byte[] bytes = new byte[length];
        src.getBytes(offset, bytes, 0, length);
        return new WirePayload(typeId, new UnsafeBuffer(bytes), decoderOrNull);
    }

    /**
     * The event's type id.
     *
     * @return the type id.
     */
    public int typeId()
    {
        return typeId;
    }

    /**
     * Length of the payload.
     *
     * @return bytes.
     */
    public int length()
    {
        return buffer.capacity();
    }

    /**
     * The payload bytes, from index 0 to {@link #length()}. Do not write to it.
     *
     * @return the buffer.
     */
    public DirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * The decoder registered for the type when the payload was received.
     *
     * @return the decoder, or null if none was registered.
     */
    public EventDecoder<?> decoder()
    {
        return decoder;
    }

    /**
     * Whether an event has been decoded and cached.
     *
     * @return true after a successful decode.
     */
    public boolean isDecoded()
    {
        return decodedBy != null;
    }

    /**
     * The event: decoded with the registered decoder on the first call, cached after. If another decoder already
     * decoded it, that result is returned.
     *
     * @return the event.
     * @throws IllegalStateException   if no decoder was registered for the type and none has decoded it yet.
     * @throws MalformedEventException if the payload cannot be decoded.
     */
    public Object event()
    {
        if (decodedBy != null)
        {
            return decoded;
        }
        if (decoder == null)
        {
            throw new IllegalStateException("no codec is registered for event type " + EventTypes.describe(typeId) +
                "; decode it with envelope.event(decoder)");
        }
        return decodeWith(decoder);
    }

    /**
     * The event as decoded by the given decoder: decoded on the first call with that decoder, cached after. A call
     * with a different decoder decodes again and replaces the cached event.
     *
     * @param decoder the decoder, for this payload's type.
     * @param <T>     the event type.
     * @return the event.
     * @throws IllegalArgumentException if the decoder is for another type.
     * @throws MalformedEventException  if the payload cannot be decoded.
     */
    public <T> T event(final EventDecoder<T> decoder)
    {
        if (decoder.typeId() != typeId)
        {
            throw new IllegalArgumentException("decoder for type " + EventTypes.describe(decoder.typeId()) +
                " cannot decode a payload of type " + EventTypes.describe(typeId));
        }
        if (decodedBy == decoder)
        {
            @SuppressWarnings("unchecked") // decoded by this very decoder, so it is a T
            final T cached = (T)decoded;
            return cached;
        }
        return decodeWith(decoder);
    }

    private <T> T decodeWith(final EventDecoder<T> decoder)
    {
        final T event = decoder.decode(buffer, 0, buffer.capacity());
        decoded = event;
        decodedBy = decoder;
        return event;
    }

    @Override
    public String toString()
    {
        return "WirePayload{type=" + EventTypes.describe(typeId) + ", length=" + buffer.capacity() +
            (decodedBy != null ? ", decoded=" + decoded : "") + '}';
    }
}
