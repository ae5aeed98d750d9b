package io.troupe.serialization.wire;

import io.troupe.actor.ActorId;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads every accessor of a frame view into a map of field name to value, during the handler call. Where a
 * view offers two ways to read the same thing (raw longs and an id, a copy and an in-place read of var data)
 * both are read and must agree, else an {@link IllegalStateException} says which did not. Integer fields are
 * boxed as the view returns them (Integer or Long), var data as {@code byte[]} or String, group entries as a
 * list of maps.
 */
final class FrameSnapshots
{
    private FrameSnapshots()
    {
    }

    static Map<String, Object> of(final EnvelopeFrame frame)
    {
        final Map<String, Object> map =
            common(frame, frame.hasForwardTarget() ? WireFormat.FORWARDED_ENVELOPE : WireFormat.ENVELOPE);
        map.put("recipientRaw1", frame.recipientRaw1());
        map.put("recipientRaw2", frame.recipientRaw2());
        map.put("senderRaw1", frame.senderRaw1());
        map.put("senderRaw2", frame.senderRaw2());
        map.put("recipient",
            agree("recipient", frame.recipient(), ActorId.fromRaw(frame.recipientRaw1(), frame.recipientRaw2())));
        map.put("sender", agree("sender", frame.sender(), ActorId.fromRaw(frame.senderRaw1(), frame.senderRaw2())));
        map.put("cookie", frame.cookie());
        map.put("accountId", frame.accountId());
        map.put("eventType", frame.eventType());
        map.put("flags", frame.flags());
        map.put("accountOwnerNode", frame.accountOwnerNode());
        map.put("cost", frame.cost());
        final int length = frame.payloadLength();
        final byte[] copied = frame.payloadBytes();
        final UnsafeBuffer destination = new UnsafeBuffer(new byte[length]);
        frame.getPayload(destination, 0);
        final byte[] inPlace = new byte[length];
        frame.buffer().getBytes(frame.payloadOffset(), inPlace);
        agreeBytes("payload copy", destination.byteArray(), copied);
        agreeBytes("payload in place", inPlace, copied);
        map.put("payload", copied);
        if (frame.hasForwardTarget())
        {
            map.put("forwardTo", frame.forwardTo());
        }
        return map;
    }

    static Map<String, Object> of(final HandshakeFrame frame)
    {
        final Map<String, Object> map = common(frame, WireFormat.HANDSHAKE);
        map.put("incarnation", frame.incarnation());
        map.put("peerIncarnation", frame.peerIncarnation());
        map.put("nodeId", frame.nodeId());
        map.put("peerNodeId", frame.peerNodeId());
        map.put("minProtocolVersion", frame.minProtocolVersion());
        map.put("maxProtocolVersion", frame.maxProtocolVersion());
        map.put("phase", frame.phase());
        map.put("clusterId", frame.clusterId());
        map.put("challenge", frame.challenge());
        map.put("proof", frame.proof());
        map.put("detail", frame.detail());
        map.put("protection", frame.protection());
        map.put("echo", frame.echo());
        return map;
    }

    static Map<String, Object> of(final HeartbeatFrame frame)
    {
        final Map<String, Object> map = common(frame, WireFormat.HEARTBEAT);
        map.put("incarnation", frame.incarnation());
        map.put("sendTimeNs", frame.sendTimeNs());
        map.put("sequence", frame.sequence());
        map.put("nodeId", frame.nodeId());
        map.put("echoTimeNs", frame.echoTimeNs());
        map.put("echoDelayNs", frame.echoDelayNs());
        return map;
    }

    static Map<String, Object> of(final AckFrame frame)
    {
        final Map<String, Object> map = common(frame, WireFormat.ACK);
        map.put("incarnation", frame.incarnation());
        map.put("ackedPosition", frame.ackedPosition());
        map.put("nodeId", frame.nodeId());
        map.put("streamId", frame.streamId());
        return map;
    }

    static Map<String, Object> of(final CreditDeltasFrame frame)
    {
        final Map<String, Object> map = common(frame, WireFormat.CREDIT_DELTAS);
        map.put("incarnation", frame.incarnation());
        map.put("nodeId", frame.nodeId());
        final int count = frame.count();
        final List<Map<String, Object>> deltas = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            deltas.add(creditDelta(frame.accountOwnerNode(i), frame.accountId(i), frame.delta(i)));
        }
        expectOutOfRange("deltas", () -> frame.accountId(-1));
        expectOutOfRange("deltas", () -> frame.delta(count));
        expectOutOfRange("deltas", () -> frame.accountOwnerNode(count));
        map.put("deltas", deltas);
        return map;
    }

    static Map<String, Object> of(final UndeliveredNoticeFrame frame)
    {
        final Map<String, Object> map = common(frame, WireFormat.UNDELIVERED_NOTICE);
        map.put("senderRaw1", frame.senderRaw1());
        map.put("senderRaw2", frame.senderRaw2());
        map.put("sender", agree("sender", frame.sender(), ActorId.fromRaw(frame.senderRaw1(), frame.senderRaw2())));
        map.put("recipient", frame.recipient());
        map.put("cookie", frame.cookie());
        map.put("eventType", frame.eventType());
        map.put("reason", frame.reason());
        map.put("reasonCode", frame.reasonCode());
        map.put("unsure", frame.unsure());
        return map;
    }

    static Map<String, Object> of(final DirectoryUpdateFrame frame)
    {
        final Map<String, Object> map = common(frame, WireFormat.DIRECTORY_UPDATE);
        map.put("incarnation", frame.incarnation());
        map.put("directoryVersion", frame.directoryVersion());
        map.put("nodeId", frame.nodeId());
        map.put("snapshot", frame.snapshot());
        final int count = frame.count();
        final List<Map<String, Object>> entries = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            entries.add(directoryEntry(frame.service(i), frame.actor(i), frame.op(i)));
        }
        expectOutOfRange("entries", () -> frame.service(count));
        expectOutOfRange("entries", () -> frame.actor(-1));
        expectOutOfRange("entries", () -> frame.op(count));
        map.put("entries", entries);
        return map;
    }

    static Map<String, Object> of(final GoodbyeFrame frame)
    {
        final Map<String, Object> map = common(frame, WireFormat.GOODBYE);
        map.put("incarnation", frame.incarnation());
        map.put("nodeId", frame.nodeId());
        map.put("reason", frame.reason());
        map.put("detail", frame.detail());
        return map;
    }

    static Map<String, Object> of(final ChunkFrame frame)
    {
        final Map<String, Object> map = common(frame, WireFormat.CHUNK);
        map.put("totalLength", frame.totalLength());
        map.put("chunkOffset", frame.chunkOffset());
        final byte[] bytes = new byte[frame.bytesLength()];
        frame.buffer().getBytes(frame.bytesOffset(), bytes);
        final UnsafeBuffer copy = new UnsafeBuffer(new byte[bytes.length]);
        frame.getBytes(copy, 0);
        if (!Arrays.equals(bytes, copy.byteArray()))
        {
            throw new IllegalStateException("getBytes differs from the bytes in place");
        }
        map.put("bytes", bytes);
        return map;
    }

    /** One credit delta entry as {@link #of(CreditDeltasFrame)} lists it. */
    static Map<String, Object> creditDelta(final int accountOwnerNode, final long accountId, final long delta)
    {
        final Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("accountOwnerNode", accountOwnerNode);
        entry.put("accountId", accountId);
        entry.put("delta", delta);
        return entry;
    }

    /** One directory entry as {@link #of(DirectoryUpdateFrame)} lists it. */
    static Map<String, Object> directoryEntry(final ActorId service, final ActorId actor, final DirectoryOp op)
    {
        final Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("service", service);
        entry.put("actor", actor);
        entry.put("op", op);
        return entry;
    }

    private static Map<String, Object> common(final Frame frame, final int templateId)
    {
        final Map<String, Object> map = new LinkedHashMap<>();
        if (frame.buffer() == null)
        {
            throw new IllegalStateException("a view without a buffer");
        }
        map.put("templateId", templateId);
        map.put("version", frame.version());
        map.put("frameLength", frame.frameLength());
        return map;
    }

    private static <T> T agree(final String what, final T value, final T other)
    {
        if (!value.equals(other))
        {
            throw new IllegalStateException(what + ": " + value + " but its raw longs say " + other);
        }
        return value;
    }

    private static void agreeBytes(final String what, final byte[] bytes, final byte[] expected)
    {
        if (!Arrays.equals(bytes, expected))
        {
            throw new IllegalStateException(what + " differs from payloadBytes()");
        }
    }

    private static void expectOutOfRange(final String group, final Runnable read)
    {
        try
        {
            read.run();
        }
        catch (final IndexOutOfBoundsException expected)
        {
            return;
        }
        throw new IllegalStateException("reading past the " + group + " group did not throw IndexOutOfBoundsException");
    }
}
