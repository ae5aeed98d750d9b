package io.troupe.samples.client;

import io.troupe.actor.EventTypes;
import io.troupe.actor.ServiceId;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.RecordCodec;

/** The greeter sample's events and service name: the node and the client both register these codecs. */
public final class GreeterEvents
{
    /** The service's name: instances of every node. */
    public static final ServiceId GREETER = ServiceId.of(0, "greeter");

    /**
     * A request: greet someone.
     *
     * @param name who.
     */
    public record Greet(String name)
    {
    }

    /**
     * The answer.
     *
     * @param text  the greeting.
     * @param node  the node that answered.
     */
    public record Greeting(String text, int node)
    {
    }

    /** {@link Greet}'s codec (user space 4200). */
    public static final EventCodec<Greet> GREET = RecordCodec.of(EventTypes.typeId(4200, 1), "sample.Greet",
        Greet.class, (out, greet) -> out.writeString(greet.name()), in -> new Greet(in.readString()));
    /** {@link Greeting}'s codec. */
    public static final EventCodec<Greeting> GREETING = RecordCodec.of(EventTypes.typeId(4200, 2), "sample.Greeting",
        Greeting.class, (out, greeting) -> out.writeString(greeting.text()).writeInt(greeting.node()),
        in -> new Greeting(in.readString(), in.readInt()));

    private GreeterEvents()
    {
    }
}
