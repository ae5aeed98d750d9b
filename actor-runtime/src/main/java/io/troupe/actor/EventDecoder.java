package io.troupe.actor;

import org.agrona.DirectBuffer;

/**
 * Turns the serialized payload of one event type back into an event. The runtime calls it lazily, on the
 * recipient actor's thread, the first time the actor asks for the event ({@link Envelope#event()} or
 * {@link Envelope#event(EventDecoder)}).
 *
 * <p>A decoder must be safe to call from several threads at once (actors on different threads decode their own
 * envelopes) and must never read outside {@code [offset, offset + length)}: a payload that does not fit is
 * rejected with a {@link MalformedEventException}.
 *
 * @param <T> the event type.
 */
public interface EventDecoder<T>
{
    /**
     * The type id this decoder reads; see {@link EventTypes}.
     *
     * @return the type id.
     */
    int typeId();

    /**
     * Decodes one event.
     *
     * @param buffer the buffer holding the payload.
     * @param offset where the payload starts.
     * @param length how many bytes the payload has.
     * @return the event.
     * @throws MalformedEventException if the payload is truncated or holds values out of range.
     */
    T decode(DirectBuffer buffer, int offset, int length);
}
