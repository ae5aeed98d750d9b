package io.troupe.client;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.EventTypes;
import io.troupe.actor.ServiceId;
import io.troupe.node.Node;
import io.troupe.node.local.LocalCluster;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.RecordCodec;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/** The events the client tests send and the services that answer them, on every node. */
final class TestEvents
{
    static final ServiceId GREETER = ServiceId.of(0, "greeter");
    static final ServiceId SLOW = ServiceId.of(0, "slow");
    static final ServiceId SINK = ServiceId.of(0, "sink");
    static final String SECRET = "client-secret-of-the-tests";

    record Greeting(String text)
    {
    }

    record Reply(String text)
    {
    }

    /** A type only clients have a codec for: nodes refuse it. */
    record Stranger(long value)
    {
    }

    static final EventCodec<Greeting> GREETING = RecordCodec.of(EventTypes.typeId(EventTypes.SPACE_USER_FIRST + 7, 1),
        "test.Greeting", Greeting.class, (out, g) -> out.writeString(g.text()), in -> new Greeting(in.readString()));
    static final EventCodec<Reply> REPLY = RecordCodec.of(EventTypes.typeId(EventTypes.SPACE_USER_FIRST + 7, 2),
        "test.Reply", Reply.class, (out, r) -> out.writeString(r.text()), in -> new Reply(in.readString()));
    static final EventCodec<Stranger> STRANGER = RecordCodec.of(EventTypes.typeId(EventTypes.SPACE_USER_FIRST + 7, 3),
        "test.Stranger", Stranger.class, (out, s) -> out.writeLong(s.value()), in -> new Stranger(in.readLong()));

    /** What the sink service of this JVM's nodes received. */
    static final BlockingQueue<Object> SUNK = new LinkedBlockingQueue<>();

    private TestEvents()
    {
    }

    static EventCodec<?>[] codecs()
    {
        return new EventCodec<?>[] {GREETING, REPLY};
    }

    /** Registers the greeter (answers "hello <text> from <node>"), the slow service (never answers) and the sink. */
    static void registerServices(final Node node)
    {
        final ActorSystem system = node.system();
        final int nodeId = node.nodeId();
        final ActorId greeter = system.register((ctx, envelope) ->
        {
            if (envelope.event() instanceof Greeting greeting)
            {
                ctx.reply(new Reply("hello " + greeting.text() + " from " + nodeId));
            }
        });
        node.registry().register(GREETER, greeter);
        node.registry().register(SLOW, system.register((ctx, envelope) -> { }));
        node.registry().register(SINK, system.register((ctx, envelope) -> SUNK.add(envelope.event())));
    }

    static ClientConfig clientConfig(final LocalCluster cluster, final int... nodeIds)
    {
        final ClientConfig config = new ClientConfig().clusterId(cluster.clusterId())
            .secret(SECRET.getBytes(StandardCharsets.UTF_8))
            .connectTimeout(Duration.ofSeconds(10)).failureTimeout(Duration.ofMillis(1500))
            .codec(GREETING).codec(REPLY).codec(STRANGER);
        for (final int nodeId : nodeIds)
        {
            config.endpoint("127.0.0.1:" + cluster.port(nodeId));
        }
        return config;
    }

    /** The settings every test cluster adds: clients admitted with {@link #SECRET}. */
    static String[] clusterSettings(final String... more)
    {
        final String[] settings = new String[more.length + 2];
        settings[0] = "troupe.client.secret = \"" + SECRET + "\"";
        settings[1] = "troupe.failure-detector.timeout = 1500ms";
        System.arraycopy(more, 0, settings, 2, more.length);
        return settings;
    }
}
