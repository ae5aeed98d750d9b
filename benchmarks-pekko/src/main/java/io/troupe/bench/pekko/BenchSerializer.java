package io.troupe.bench.pekko;

import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.serialization.ByteBufferSerializer;
import org.apache.pekko.serialization.SerializerWithStringManifest;

import java.io.NotSerializableException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The hand-written serializer of every message that crosses nodes, bound to them in {@code pekko-bench.conf}:
 * a {@link SerializerWithStringManifest} (a one-letter manifest per class) that is also a
 * {@link ByteBufferSerializer}, so Artery writes straight into its pooled envelope buffer and reads straight from
 * it, without an intermediate {@code byte[]}, which Pekko documents as the fastest way for Artery.
 *
 * <p>The four measured messages have fixed sizes, as their Troupe codecs: {@link Chunk} 24 bytes (seq, 16 data
 * bytes), {@link Ack} 8, {@link Tally} 24, {@link Ping} 8. The three set-up messages that carry an actor
 * reference ({@link TallyRequest}, {@link AckTo}, {@link EchoTo}) write it as its string form
 * ({@link ActorRefResolver}), length-prefixed; each is sent once or twice per run.
 *
 * <p>Thread safe: Pekko calls it from several stream stages at once; it keeps no mutable state but the lazily
 * created resolver.
 */
public final class BenchSerializer extends SerializerWithStringManifest implements ByteBufferSerializer
{
    /** The serializer's id, bound in {@code pekko-bench.conf}; Pekko reserves 0..40 for its own. */
    static final int IDENTIFIER = 730_001;

    private static final String CHUNK = "C";
    private static final String ACK = "A";
    private static final String TALLY = "T";
    private static final String PING = "P";
    private static final String TALLY_REQUEST = "Q";
    private static final String ACK_TO = "K";
    private static final String ECHO_TO = "E";
    /** Longest actor reference string accepted when reading. */
    private static final int MAX_REF_BYTES = 4096;

    private final ExtendedActorSystem system;
    private volatile ActorRefResolver resolver;

    /**
     * Creates the serializer; Pekko calls this through reflection, once per actor system.
     *
     * @param system the actor system.
     */
    public BenchSerializer(final ExtendedActorSystem system)
    {
        this.system = system;
    }

    @Override
    public int identifier()
    {
        return IDENTIFIER;
    }

    @Override
    public String manifest(final Object message)
    {
        if (message instanceof Chunk)
        {
            return CHUNK;
        }
        if (message instanceof Ack)
        {
            return ACK;
        }
        if (message instanceof Ping)
        {
            return PING;
        }
        if (message instanceof Tally)
        {
            return TALLY;
        }
        if (message instanceof TallyRequest)
        {
            return TALLY_REQUEST;
        }
        if (message instanceof AckTo)
        {
            return ACK_TO;
        }
        if (message instanceof EchoTo)
        {
            return ECHO_TO;
        }
        throw new IllegalArgumentException("cannot serialize " + message.getClass().getName());
    }

    @Override
    public void toBinary(final Object message, final ByteBuffer buffer)
    {
        if (message instanceof Chunk chunk)
        {
            buffer.putLong(chunk.seq());
            buffer.put(chunk.data(), 0, Chunk.DATA_BYTES);
        }
        else if (message instanceof Ack ack)
        {
            buffer.putLong(ack.seq());
        }
        else if (message instanceof Ping ping)
        {
            buffer.putLong(ping.sentNs());
        }
        else if (message instanceof Tally tally)
        {
            buffer.putLong(tally.received());
            buffer.putLong(tally.outOfOrder());
            buffer.putLong(tally.atNs());
        }
        else if (message instanceof TallyRequest request)
        {
            putRef(buffer, request.replyTo());
        }
        else if (message instanceof AckTo ackTo)
        {
            putRef(buffer, ackTo.streamer());
        }
        else if (message instanceof EchoTo echoTo)
        {
            putRef(buffer, echoTo.pinger());
        }
        else
        {
            throw new IllegalArgumentException("cannot serialize " + message.getClass().getName());
        }
    }

    @Override
    public Object fromBinary(final ByteBuffer buffer, final String manifest) throws NotSerializableException
    {
        switch (manifest)
        {
            case CHUNK:
            {
                final long seq = buffer.getLong();
                final byte[] data = new byte[Chunk.DATA_BYTES];
                buffer.get(data);
                return new Chunk(seq, data);
            }
            case ACK:
                return new Ack(buffer.getLong());
            case PING:
                return new Ping(buffer.getLong());
            case TALLY:
                return new Tally(buffer.getLong(), buffer.getLong(), buffer.getLong());
            case TALLY_REQUEST:
                return new TallyRequest(getRef(buffer));
            case ACK_TO:
                return new AckTo(getRef(buffer));
            case ECHO_TO:
                return new EchoTo(getRef(buffer));
            default:
                throw new NotSerializableException("unknown manifest '" + manifest + "'");
        }
    }

    @Override
    public byte[] toBinary(final Object message)
    {
        // the byte[] path (Pekko's own checks, not Artery's send path): the same layout in a heap buffer
        final ByteBuffer buffer = ByteBuffer.allocate(encodedLength(message));
        toBinary(message, buffer);
        return buffer.array();
    }

    @Override
    public Object fromBinary(final byte[] bytes, final String manifest) throws NotSerializableException
    {
        return fromBinary(ByteBuffer.wrap(bytes), manifest);
    }

    private int encodedLength(final Object message)
    {
        if (message instanceof Chunk)
        {
            return Chunk.ENCODED_BYTES;
        }
        if (message instanceof Ack || message instanceof Ping)
        {
            return Long.BYTES;
        }
        if (message instanceof Tally)
        {
            return 3 * Long.BYTES;
        }
        final ActorRef<?> ref;
        if (message instanceof TallyRequest request)
        {
            ref = request.replyTo();
        }
        else if (message instanceof AckTo ackTo)
        {
            ref = ackTo.streamer();
        }
        else if (message instanceof EchoTo echoTo)
        {
            ref = echoTo.pinger();
        }
        else
        {
            throw new IllegalArgumentException("cannot serialize " + message.getClass().getName());
        }
        return Integer.BYTES + refBytes(ref).length;
    }

    private void putRef(final ByteBuffer buffer, final ActorRef<?> ref)
    {
        final byte[] bytes = refBytes(ref);
        buffer.putInt(bytes.length);
        buffer.put(bytes);
    }

    private <T> ActorRef<T> getRef(final ByteBuffer buffer) throws NotSerializableException
    {
        final int length = buffer.getInt();
        if (length < 0 || length > MAX_REF_BYTES || length > buffer.remaining())
        {
            throw new NotSerializableException("bad actor reference length " + length);
        }
        final byte[] bytes = new byte[length];
        buffer.get(bytes);
        return resolver().resolveActorRef(new String(bytes, StandardCharsets.UTF_8));
    }

    private byte[] refBytes(final ActorRef<?> ref)
    {
        return resolver().toSerializationFormat(ref).getBytes(StandardCharsets.UTF_8);
    }

    private ActorRefResolver resolver()
    {
        ActorRefResolver current = resolver;
        if (current == null)
        {
            // created on first use, not in the constructor: serializers are made while the system starts
            current = ActorRefResolver.get(Adapter.toTyped(system));
            resolver = current;
        }
        return current;
    }
}
