package io.troupe.client;

import io.troupe.actor.ActorId;
import io.troupe.serialization.wire.FrameEncoder;
import io.troupe.serialization.wire.WireFormat;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.reflect.Field;

/** Frames no codec registry would let a client write: straight into the client's send buffer. */
final class RawFrames
{
    private RawFrames()
    {
    }

    static boolean send(final TroupeClient client, final ActorId target, final int type, final long cookie,
        final byte[] payload)
    {
        final ClientAgent agent = agentOf(client);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[WireFormat.envelopeLength(payload.length, false)]);
        final int at = new FrameEncoder().beginEnvelope(frame, 0, target, ActorId.NONE, type, 0, cookie, 0, 0L, 0, null,
            payload.length);
        frame.putBytes(at, payload);
        final boolean written = agent.sendBuffer.write(cookie == 0 ? ClientAgent.SEND : ClientAgent.ASK, frame, 0,
            frame.capacity());
        agent.idle.signal();
        return written;
    }

    static ClientAgent agentOf(final TroupeClient client)
    {
        try
        {
            final Field field = TroupeClient.class.getDeclaredField("agent");
            field.setAccessible(true);
            return (ClientAgent)field.get(client);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
