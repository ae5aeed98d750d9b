package io.troupe.samples.demo;

import io.troupe.actor.ActorRef;
import io.troupe.actor.EventTypes;
import io.troupe.actor.ServiceKey;
import io.troupe.serialization.DerivedCodec;
import io.troupe.serialization.EventCodec;

import java.util.List;

/**
 * The events and services of the demo workload ({@code troupe demo} and its {@link DemoNode}s), on the typed API:
 * each request carries the ref its answer goes to, and each service is a {@link ServiceKey}. Every demo node
 * speaks these events, with codecs derived from the records; they live in the last user event space,
 * {@link #SPACE}, out of the way of applications, which count their spaces up from
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
    /** Type id of {@link EchoRequest}. */
    public static final int ECHO_REQUEST = EventTypes.typeId(SPACE, 4);
    /** Type id of {@link StatusRequest}. */
    public static final int STATUS_REQUEST = EventTypes.typeId(SPACE, 5);

    /**
     * A ball of the ping-pong, stamped by the node that serves it.
     *
     * @param sequence the ball's number of round trips so far.
     * @param sentNs   {@link System#nanoTime()} on the serving node when it was sent.
     * @param replyTo  where the responder returns it.
     */
    public record Ping(long sequence, long sentNs, ActorRef<Ping> replyTo)
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
     * Asks the echo service to say a text back.
     *
     * @param text    the text.
     * @param replyTo where the echo goes.
     */
    public record EchoRequest(String text, ActorRef<Text> replyTo)
    {
    }

    /**
     * Asks a node's status service about its node.
     *
     * @param replyTo where the {@link Status} goes.
     */
    public record StatusRequest(ActorRef<Status> replyTo)
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

    /** The echo service: answers an {@link EchoRequest} with {@code "echo: "} and the text. */
    public static final ServiceKey<EchoRequest> ECHO = ServiceKey.of(EchoRequest.class, "echo");
    /** The ping-pong responder: returns every {@link Ping} to its {@code replyTo}. */
    public static final ServiceKey<Ping> PING_PONG = ServiceKey.of(Ping.class, "pingpong");
    /** The status service: answers a {@link StatusRequest} with the node's {@link Status}. */
    public static final ServiceKey<StatusRequest> STATUS_SERVICE = ServiceKey.of(StatusRequest.class, "status");

    /** Every codec of the demo's events: derived from the records, under the demo's own type ids. */
    public static final List<EventCodec<?>> CODECS = List.of(
        DerivedCodec.of(Ping.class, PING, "demo.Ping"),
        DerivedCodec.of(Text.class, TEXT, "demo.Text"),
        DerivedCodec.of(Status.class, STATUS, "demo.Status"),
        DerivedCodec.of(EchoRequest.class, ECHO_REQUEST, "demo.EchoRequest"),
        DerivedCodec.of(StatusRequest.class, STATUS_REQUEST, "demo.StatusRequest"));

    private DemoEvents()
    {
    }
}
