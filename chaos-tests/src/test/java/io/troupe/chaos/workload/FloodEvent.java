package io.troupe.chaos.workload;

import io.troupe.actor.EventTypes;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.RecordCodec;

/**
 * One event of the chaos flood ({@link FloodProducer}), and what a client asks {@code chaos-echo}.
 *
 * @param seq the sender's sequence number, from 1.
 */
public record FloodEvent(long seq)
{
    /** Its type id. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 78);
    /** Its codec, on every node of the chaos cluster and in the suite's client. */
    public static final EventCodec<FloodEvent> CODEC = RecordCodec.of(TYPE, "chaos.FloodEvent", FloodEvent.class,
        (out, event) -> out.writeLong(event.seq()), in -> new FloodEvent(in.readLong()));
}
