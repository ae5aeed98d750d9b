package io.troupe.samples.demo;

import io.troupe.actor.EventTypes;
import io.troupe.actor.ServiceId;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.DerivedCodec;

import java.util.List;

/**
 * The events and services of the demo workload ({@code troupe demo} and its {@link DemoNode}s). Every demo
 * node speaks these events; they live in the last user event
 * space, {@link #SPACE}, out of the way of applications, which count their spaces up from
 * {@link EventTypes#SPACE_USER_FIRST}.
 */
public final class DemoEvents
{
    /** The event space of the demo's events. */
    public static final int SPACE = EventTypes.MAX_SPACE;
    /** Type id of {@link Ping}. */
    public static final int PING = EventTypes.typeId(SPACE, 1);
    /** Type id of {@link Text}. */
    public static final int TEXT = EventTypes.typeId(SPACE, 2);
    /** Type id of {@link Status}. */
    public static final int STATUS = EventTypes.typeId(SPACE, 3);

    /** The echo service: answers a {@link Text} with {@code "echo: "} and the text. */
    public static final ServiceId ECHO = ServiceId.of(0, "echo");
    /** The ping-pong responder: returns every {@link Ping} to its sender. */
    public static final ServiceId PING_PONG = ServiceId.of(0, "pingpong");
    /** The status service: answers any event with the node's {@link Status}. */
    public static final ServiceId STATUS_SERVICE = ServiceId.of(0, "status");

    /**
     * A ball of the ping-pong, stamped by the node that serves it.
     *
     * @param sequence the ball's number of round trips so far.
     * @param sentNs   {@link System#nanoTime()} on the serving node when it was sent.
     */
    public record Ping(long sequence, long sentNs)
    {
    }

    /**
     * A line of text.
     *
     * @param text the text.
     */
    public record Text(String text)
    {
    }

    /**
     * What a node says about itself.
     *
     * @param nodeId      its id.
     * @param pid         its process id.
     * @param incarnation its interconnect's incarnation.
     * @param peersUp     the ids of the peers with a session up, separated by commas.
     */
    public record Status(int nodeId, long pid, long incarnation, String peersUp)
    {
    }

    /** Codec of {@link Ping}, derived from the record, under the demo's own type id. */
    public static final EventCodec<Ping> PING_CODEC = DerivedCodec.of(Ping.class, PING, "demo.Ping");
    /** Codec of {@link Text}. */
    public static final EventCodec<Text> TEXT_CODEC = DerivedCodec.of(Text.class, TEXT, "demo.Text");
    /** Codec of {@link Status}. */
    public static final EventCodec<Status> STATUS_CODEC = DerivedCodec.of(Status.class, STATUS, "demo.Status");
    /** Every codec of the demo's events. */
    public static final List<EventCodec<?>> CODECS = List.of(PING_CODEC, TEXT_CODEC, STATUS_CODEC);

    private DemoEvents()
    {
    }
}
