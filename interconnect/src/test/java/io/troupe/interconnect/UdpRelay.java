package io.troupe.interconnect;

import io.aeron.protocol.DataHeaderFlyweight;
import io.aeron.protocol.HeaderFlyweight;
import org.agrona.BitUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An attacker on the path, for tests: a UDP relay one node sends a peer's traffic through (the node's peer address
 * is the relay's port), which forwards every datagram both ways unchanged, remembers the Aeron data frames it saw
 * (their session, stream, term and offset, and whole unfragmented messages), and can inject a hand-built Aeron
 * DATA frame at the next offset of a stream, from an unrelated socket, the way the attack against the unsealed
 * protocol did. Injection runs on the relay's thread, between two forwarded datagrams, so nothing genuine can
 * take the offset first; the genuine frame that later arrives for it is a duplicate to the receiver's driver.
 */
final class UdpRelay implements AutoCloseable
{
    /** A data frame seen on the way. */
    record Captured(int streamId, int sessionId, int termId, int termOffset, byte[] message)
    {
    }

    private final DatagramChannel channel;
    private final DatagramChannel injector;
    private final InetSocketAddress target;
    private final Thread thread;
    private final ConcurrentLinkedQueue<Runnable> commands = new ConcurrentLinkedQueue<>();
    private final Map<Integer, int[]> nextByStream = new ConcurrentHashMap<>(); // stream -> {session, term, offset}
    private final List<Captured> captured = new CopyOnWriteArrayList<>();
    private volatile SocketAddress source;
    private volatile boolean running = true;

    /**
     * Starts a relay on a free loopback port that forwards to {@code targetPort}.
     *
     * @param targetPort where the receiving node listens.
     */
    UdpRelay(final int targetPort)
    {
        try
        {
            channel = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
            channel.configureBlocking(false);
            injector = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        target = new InetSocketAddress("127.0.0.1", targetPort);
        thread = new Thread(this::run, "udp-relay");
        thread.setDaemon(true);
        thread.start();
    }

    int port()
    {
        return channel.socket().getLocalPort();
    }

    /** Data frames with a payload seen so far on a stream, in order. */
    List<Captured> captured(final int streamId)
    {
        final List<Captured> list = new ArrayList<>();
        for (final Captured each : captured)
        {
            if (each.streamId() == streamId)
            {
                list.add(each);
            }
        }
        return list;
    }

    /**
     * Sends a DATA frame with this message at the next offset of the stream (as the last frame seen says), from
     * an unrelated socket, and moves the stream's next offset past it.
     *
     * @param streamId the Aeron stream.
     * @param message  the frame's payload: what the receiving node's subscription is given.
     */
    void inject(final int streamId, final byte[] message)
    {
        final Object done = new Object();
        final boolean[] finished = {false};
        commands.add(() ->
        {
            final int[] next = nextByStream.get(streamId);
            if (next == null)
            {
                throw new IllegalStateException("nothing seen on stream " + streamId + " yet");
            }
            final int frameLength = DataHeaderFlyweight.HEADER_LENGTH + message.length;
            final ByteBuffer packet = ByteBuffer.allocate(frameLength).order(ByteOrder.LITTLE_ENDIAN);
            final DataHeaderFlyweight header = new DataHeaderFlyweight(new UnsafeBuffer(packet));
            header.frameLength(frameLength);
            header.version(HeaderFlyweight.CURRENT_VERSION);
            header.flags(DataHeaderFlyweight.BEGIN_AND_END_FLAGS);
            header.headerType(HeaderFlyweight.HDR_TYPE_DATA);
            header.termOffset(next[2]);
            header.sessionId(next[0]);
            header.streamId(streamId);
            header.termId(next[1]);
            header.reservedValue(0L);
            packet.position(DataHeaderFlyweight.HEADER_LENGTH);
            packet.put(message);
            packet.flip();
            try
            {
                injector.send(packet, target);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
            next[2] += BitUtil.align(frameLength, 32);
            synchronized (done)
            {
                finished[0] = true;
                done.notifyAll();
            }
        });
        synchronized (done)
        {
            while (!finished[0])
            {
                try
                {
                    done.wait(10);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(ex);
                }
            }
        }
    }

    private void run()
    {
        final ByteBuffer buffer = ByteBuffer.allocateDirect(65536).order(ByteOrder.LITTLE_ENDIAN);
        final UnsafeBuffer view = new UnsafeBuffer(buffer);
        final Selector selector;
        try
        {
            selector = Selector.open();
            channel.register(selector, SelectionKey.OP_READ);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        while (running)
        {
            try
            {
                Runnable command;
                while ((command = commands.poll()) != null)
                {
                    command.run();
                }
                buffer.clear();
                final SocketAddress from = channel.receive(buffer);
                if (from == null)
                {
                    selector.select(1); // no spinning: the nodes under test share two cores
                    selector.selectedKeys().clear();
                    continue;
                }
                buffer.flip();
                if (from.equals(target))
                {
                    if (source != null)
                    {
                        channel.send(buffer, source); // status messages, NAKs, RTT replies back to the sender
                    }
                    continue;
                }
                source = from;
                observe(view, buffer.limit());
                channel.send(buffer, target);
            }
            catch (final IOException ex)
            {
                if (running)
                {
                    throw new UncheckedIOException(ex);
                }
            }
        }
        try
        {
            selector.close();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** Notes every data frame of a datagram (several may share one) and each stream's next offset. */
    private void observe(final UnsafeBuffer view, final int length)
    {
        int at = 0;
        while (at + DataHeaderFlyweight.HEADER_LENGTH <= length)
        {
            final int frameLength = view.getInt(at + DataHeaderFlyweight.FRAME_LENGTH_FIELD_OFFSET,
                ByteOrder.LITTLE_ENDIAN);
            final int type = view.getShort(at + HeaderFlyweight.TYPE_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
            if (type != HeaderFlyweight.HDR_TYPE_DATA || frameLength < DataHeaderFlyweight.HEADER_LENGTH)
            {
                return; // setup, RTT and others travel alone; a heartbeat (no payload) changes no offset
            }
            final int termOffset = view.getInt(at + DataHeaderFlyweight.TERM_OFFSET_FIELD_OFFSET,
                ByteOrder.LITTLE_ENDIAN);
            final int sessionId = view.getInt(at + DataHeaderFlyweight.SESSION_ID_FIELD_OFFSET,
                ByteOrder.LITTLE_ENDIAN);
            final int streamId = view.getInt(at + DataHeaderFlyweight.STREAM_ID_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final int termId = view.getInt(at + DataHeaderFlyweight.TERM_ID_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final int flags = view.getByte(at + HeaderFlyweight.FLAGS_FIELD_OFFSET) & 0xFF;
            if (frameLength == DataHeaderFlyweight.HEADER_LENGTH)
            {
                return; // a heartbeat: at the next offset, with nothing in it
            }
            final int next = termOffset + BitUtil.align(frameLength, 32);
            final int[] known = nextByStream.computeIfAbsent(streamId, id -> new int[3]);
            if (known[1] != termId || next > known[2])
            {
                known[0] = sessionId;
                known[1] = termId;
                known[2] = next;
            }
            if (flags == DataHeaderFlyweight.BEGIN_AND_END_FLAGS)
            {
                final byte[] message = new byte[frameLength - DataHeaderFlyweight.HEADER_LENGTH];
                view.getBytes(at + DataHeaderFlyweight.HEADER_LENGTH, message);
                captured.add(new Captured(streamId, sessionId, termId, termOffset, message));
            }
            at += BitUtil.align(frameLength, 32);
        }
    }

    @Override
    public void close()
    {
        running = false;
        try
        {
            thread.join(2_000);
            channel.close();
            injector.close();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
