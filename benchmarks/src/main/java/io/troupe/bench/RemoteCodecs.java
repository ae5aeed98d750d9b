package io.troupe.bench;

import io.troupe.actor.EventTypes;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.EventCodecRegistry;

/**
 * Type ids and the codec registry of the events the remote workloads send between their two nodes. Both
 * processes build the same registry.
 */
final class RemoteCodecs
{
    /** {@link Chunk}: streamed by {@code remote.throughput}. */
    static final int CHUNK_TYPE = EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 1);
    /** {@link Ack}: the sink's acknowledgement of every 256th chunk. */
    static final int ACK_TYPE = EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 2);
    /** {@link Tally}: the sink's counts, asked for at the edges of the window. */
    static final int TALLY_TYPE = EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 3);
    /** {@link Ping}: {@code remote.rtt}'s request and response. */
    static final int PING_TYPE = EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 4);
    /** {@link FloodPace}: {@code flow.flood} sets the consumer's service time. */
    static final int FLOOD_PACE_TYPE = EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 5);
    /** {@link FloodTally}: {@code flow.flood}'s consumer counts. */
    static final int FLOOD_TALLY_TYPE = EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 6);

    private RemoteCodecs()
    {
    }

    /**
     * The registry: Troupe's own codecs and the six above.
     *
     * @return a new registry.
     */
    static EventCodecRegistry registry()
    {
        final EventCodecRegistry.Builder builder = EventCodecRegistry.builder().withTroupeCodecs();
        for (final EventCodec<?> codec : codecs())
        {
            builder.register(codec);
        }
        return builder.build();
    }

    /**
     * The six codecs above, for a node or a client that builds its registry itself.
     *
     * @return the codecs.
     */
    static EventCodec<?>[] codecs()
    {
        return new EventCodec<?>[] {Chunk.Codec.INSTANCE, Ack.Codec.INSTANCE,
            Tally.Codec.INSTANCE, Ping.Codec.INSTANCE, FloodPace.Codec.INSTANCE, FloodTally.Codec.INSTANCE};
    }
}
