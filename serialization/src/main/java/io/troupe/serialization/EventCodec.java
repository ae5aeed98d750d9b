package io.troupe.serialization;

import io.troupe.actor.EventDecoder;
import org.agrona.MutableDirectBuffer;

import java.nio.charset.StandardCharsets;

/**
 * Turns events of one type into payload bytes and back. A codec is registered under its {@link #typeId()} in an
 * {@link EventCodecRegistry}; the interconnect encodes with it on send, and the recipient actor decodes lazily on
 * its own thread (see {@link io.troupe.actor.WirePayload}).
 *
 * <p>Codecs are shared by every thread of a node: implementations must be thread safe. Encoding writes exactly
 * {@link #encodedLength(Object)} bytes; decoding never reads outside its range and rejects a payload that does
 * not fit with an {@link io.troupe.actor.MalformedEventException}.
 *
 * @param <T> the event type.
 */
public interface EventCodec<T> extends EventDecoder<T>
{
    /**
     * A readable name for error messages and listings, e.g. {@code "troupe.Undelivered"} or {@code "orders.Fill"}.
     *
     * @return the name.
     */
    String name();

    /**
     * What a node tells its peers about this codec at the handshake, with its type id: two nodes that give one
     * type id different fingerprints bind it to different things and refuse each other. The default hashes the
     * name; {@link DerivedCodec} hashes the name and the shape. A hand-written codec whose wire form changes
     * under the same name should return a new value.
     *
     * @return the fingerprint.
     */
    default long fingerprint()
    {
        long hash = 0xcbf29ce484222325L;
        for (final byte b : name().getBytes(StandardCharsets.UTF_8))
        {
            hash ^= b & 0xFF;
            hash *= 0x100000001b3L;
        }
        return hash;
    }

    /**
     * The class of the events this codec encodes; a registry maps it (exactly, not its subclasses) to this codec.
     *
     * @return the event class.
     */
    Class<T> eventClass();

    /**
     * The exact number of bytes {@link #encode} will write for this event.
     *
     * @param event the event.
     * @return bytes, 0 or more.
     */
    int encodedLength(T event);

    /**
     * Encodes an event. The caller provides room for {@link #encodedLength(Object)} bytes from {@code offset}.
     *
     * @param event  the event.
     * @param buffer where to write.
     * @param offset where the payload starts.
     * @return the number of bytes written, equal to {@link #encodedLength(Object)}.
     */
    int encode(T event, MutableDirectBuffer buffer, int offset);
}
