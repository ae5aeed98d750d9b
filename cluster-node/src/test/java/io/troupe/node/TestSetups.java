package io.troupe.node;

import io.troupe.actor.ServiceId;
import io.troupe.serialization.EventCodec;

import java.util.List;

/** {@link NodeSetup}s named by the tests' configs. */
final class TestSetups
{
    static final ServiceId APP_ECHO = ServiceId.of(0, "app-echo");

    private TestSetups()
    {
    }

    /** Registers an echo service in the directory and brings the tests' Note codec. */
    public static final class EchoSetup implements NodeSetup
    {
        @Override
        public List<EventCodec<?>> codecs()
        {
            return List.of(TestEvents.NOTE_CODEC);
        }

        @Override
        public void setup(final Node node)
        {
            node.registry().register(APP_ECHO, node.system().register((ctx, envelope) ->
                ctx.reply(new TestEvents.Note("app: " + ((TestEvents.Note)envelope.event()).text()))));
        }
    }

    /** Fails in setup. */
    public static final class FailingSetup implements NodeSetup
    {
        @Override
        public void setup(final Node node)
        {
            throw new IllegalStateException("the application's database is unreachable");
        }
    }

    /** Fails to construct. */
    public static final class UnmakeableSetup implements NodeSetup
    {
        /** Always throws. */
        public UnmakeableSetup()
        {
            throw new IllegalStateException("no licence file");
        }

        @Override
        public void setup(final Node node)
        {
        }
    }
}
