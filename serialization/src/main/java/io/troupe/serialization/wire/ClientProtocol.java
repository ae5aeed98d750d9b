package io.troupe.serialization.wire;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * The protocol between a client process ({@code cluster-client}) and the node it is connected to. It is made of
 * this schema's frames, on two Aeron streams each way (the client's control and data streams: to the node's
 * endpoint, and back to the endpoint the client names in its HELLO):
 *
 * <ul>
 * <li><b>control</b>: the handshake ({@link Handshake}: HELLO, WELCOME, CONFIRM, or REFUSE with the reason; its
 *     "protocol versions" are this protocol's, {@link #MIN_VERSION}..{@link #VERSION}), then sealed heartbeats and
 *     a goodbye;</li>
 * <li><b>data</b>, sealed: messages that each pack one or more envelope frames, every frame preceded by its length
 *     ({@link #LENGTH_PREFIX} bytes, little-endian). A length with its top bit ({@link #COMPACT_FLAG}) set is a
 *     compact frame ({@link EnvelopeCompaction}: cookie and payload) standing for the message's last full envelope
 *     frame with that cookie and payload, as between nodes. Client to node: the events it sends (cookie 0) and asks
 *     (cookie: the ask's id). Node to client: replies (the ask's cookie), {@code Undelivered} notices (in envelopes,
 *     typed
 *     {@code Undelivered.TYPE}), lookup results and service notices.</li>
 * </ul>
 *
 * The HELLO's {@code detail} is the endpoint the node answers to ({@code host:port}, an address literal), and its
 * proof binds it (in the proof's type-table slot), so a copied HELLO cannot send the node's answers elsewhere.
 */
public final class ClientProtocol
{
    /** The newest version of this protocol. */
    public static final int VERSION = 1;
    /** The oldest version still spoken. */
    public static final int MIN_VERSION = 1;
    /** Bytes before each frame of a data message: its length. */
    public static final int LENGTH_PREFIX = Integer.BYTES;
    /** The top bit of a length prefix: the frame is compact. */
    public static final int COMPACT_FLAG = 0x8000_0000;

    private ClientProtocol()
    {
    }

    /**
     * Writes a frame's length before it.
     *
     * @param buffer the message.
     * @param offset where the prefix goes.
     * @param length the frame's length.
     */
    public static void putLength(final MutableDirectBuffer buffer, final int offset, final int length)
    {
        buffer.putInt(offset, length, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * The length of the frame at {@code offset} of a data message, checked against what remains of the message.
     *
     * @param buffer the message.
     * @param offset where the prefix is.
     * @param end    where the message ends.
     * @return the frame's length (without the {@link #COMPACT_FLAG}), or -1 if the prefix is cut short, its length
     *     is not positive, or longer than what remains.
     */
    public static int frameLength(final DirectBuffer buffer, final int offset, final int end)
    {
        if (end - offset < LENGTH_PREFIX)
        {
            return -1;
        }
        final int length = buffer.getInt(offset, ByteOrder.LITTLE_ENDIAN) & ~COMPACT_FLAG;
        return length > 0 && length <= end - offset - LENGTH_PREFIX ? length : -1;
    }

    /**
     * Whether the frame at {@code offset} of a data message (its length prefix there) is compact.
     *
     * @param buffer the message.
     * @param offset where the prefix is.
     * @return true if the prefix has the {@link #COMPACT_FLAG}.
     */
    public static boolean isCompact(final DirectBuffer buffer, final int offset)
    {
        return (buffer.getInt(offset, ByteOrder.LITTLE_ENDIAN) & COMPACT_FLAG) != 0;
    }

    /** Receives the frames of a data message, compact ones expanded. */
    @FunctionalInterface
    public interface FrameSink
    {
        /**
         * One whole frame (not yet validated: decode it with a {@link FrameDecoder}).
         *
         * @param buffer the bytes.
         * @param offset where the frame starts.
         * @param length its length.
         */
        void frame(DirectBuffer buffer, int offset, int length);
    }

    /**
     * Hands each frame of a data message to a sink, expanding compact ones into {@code expanded} (a compact frame
     * stands for the message's last full envelope frame with its own cookie and payload).
     *
     * @param message  the message's body.
     * @param offset   where its first length prefix is.
     * @param end      where it ends.
     * @param expanded where compact frames are rebuilt; frames that would not fit it are malformed.
     * @param sink     gets each frame.
     * @return true if the whole message was well formed; false at the first entry that was not (the frames before
     *     it were handed over).
     */
    public static boolean unpack(final DirectBuffer message, final int offset, final int end,
        final MutableDirectBuffer expanded, final FrameSink sink)
    {
        int at = offset;
        int baseAt = -1;
        while (at < end)
        {
            final int length = frameLength(message, at, end);
            if (length < 0)
            {
                return false;
            }
            final boolean compact = isCompact(message, at);
            at += LENGTH_PREFIX;
            if (compact)
            {
                if (baseAt < 0 || length < EnvelopeCompaction.COMPACT_OVERHEAD ||
                    EnvelopeCompaction.expandedLength(length) > expanded.capacity())
                {
                    return false;
                }
                sink.frame(expanded, 0, EnvelopeCompaction.expand(message, baseAt, message, at, length, expanded));
            }
            else
            {
                baseAt = EnvelopeCompaction.isBase(message, at, length) ? at : -1;
                sink.frame(message, at, length);
            }
            at += length;
        }
        return true;
    }

    /**
     * Parses the endpoint of a HELLO: an IPv4 literal or a bracketed IPv6 literal, a colon, and a port 1..65535. No
     * name is resolved (the node's agent must not wait on a name service for a stranger's input).
     *
     * @param endpoint the text.
     * @return true if it is such an endpoint.
     */
    public static boolean isAddressEndpoint(final String endpoint)
    {
        if (endpoint == null || endpoint.length() > 64)
        {
            return false;
        }
        final int colon = endpoint.lastIndexOf(':');
        if (colon <= 0 || colon == endpoint.length() - 1)
        {
            return false;
        }
        final String host = endpoint.substring(0, colon);
        final String port = endpoint.substring(colon + 1);
        if (!port.chars().allMatch(Character::isDigit) || port.length() > 5)
        {
            return false;
        }
        final int number = Integer.parseInt(port);
        if (number < 1 || number > 65535)
        {
            return false;
        }
        if (host.startsWith("[") && host.endsWith("]"))
        {
            final String v6 = host.substring(1, host.length() - 1);
            return !v6.isEmpty() && v6.chars().allMatch(c -> c == ':' || c == '.' || Character.digit(c, 16) >= 0);
        }
        final String[] parts = host.split("\\.", -1);
        if (parts.length != 4)
        {
            return false;
        }
        for (final String part : parts)
        {
            if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(Character::isDigit) ||
                Integer.parseInt(part) > 255)
            {
                return false;
            }
        }
        return true;
    }
}
