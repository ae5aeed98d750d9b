package io.troupe.actor;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The serialized event of an envelope that arrived from the wire: a private copy of the payload bytes, its type
 * id, the decoder registered for that type (if any), and the event once decoded. An {@link Envelope} whose event
 * is a {@code WirePayload} is <em>serialized</em>; the recipient actor decodes it lazily on its own thread, so the
 * interconnect never runs user decoders.
 *
 * <p>Not thread safe, by design: only the thread that currently owns the envelope (the recipient actor while it
 * handles it) may decode. Handing the envelope on through a mailbox publishes the cached event safely. The
 * receipt ({@link #awaitReceipt()}, {@link #isSettled()}) is the exception: the transport that received the
 * envelope reads it from its own thread.
 */
public final class WirePayload
{
    private static final VarHandle SETTLED;

    static
    {
        try
        {
            SETTLED = MethodHandles.lookup().findVarHandle(WirePayload.class, "settled", boolean.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final int typeId;
    private final UnsafeBuffer buffer;
    private final EventDecoder<?> decoder;
    private EventDecoder<?> decodedBy;
    private Object decoded;
    /** Written by the receiving transport before the envelope is sent into the system, which publishes it. */
    private boolean receiptAwaited;
    /** Set with release semantics by the runtime thread that is done with the envelope; read with acquire. */
    @SuppressWarnings("unused") // accessed through SETTLED
    private boolean settled;

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
     * Asks the runtime to settle the envelope that carries this payload once it is done with it, so that
     * {@link #isSettled()} tells the transport that received it. Done means: handled by its recipient (whether
     * the handler returned or threw), or taken down a non-delivery path to its end (an {@link Undelivered} sent,
     * dropped, or a dead letter), or accepted by the transport to another node. Call it before the envelope is
     * sent into the actor system, on the thread that sends it.
     */
    public void awaitReceipt()
    {
        receiptAwaited = true;
    }

    /**
     * Whether the runtime is done with the envelope that carries this payload (see {@link #awaitReceipt()}).
     * Any thread.
     *
     * @return true once settled; always false if no receipt was awaited.
     */
    public boolean isSettled()
    {
        return (boolean)SETTLED.getAcquire(this);
    }

    /** The runtime is done with the envelope: what it did with it happened before a reader sees true. */
    void settle()
    {
        if (receiptAwaited)
        {
            SETTLED.setRelease(this, true);
        }
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
