package io.troupe.bench;

import io.troupe.actor.ServiceId;
import io.troupe.client.SendStatus;
import io.troupe.client.TroupeClient;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code client.ingress}: how many events per second one client process gets to one actor on a node. The node is
 * a child process ({@code client.node}); this process's client sends {@link Chunk}s {@code (long seq, byte[16])} to
 * the node's {@link ChunkSink} (service {@value RemotePeerWorkload#SINK}) as fast as its sends are taken, yielding
 * the processor while they are pushed back. After the warm-up and again after the window it asks the sink for its
 * {@link Tally}; the figure is the chunks the sink received between the two, divided by the time between them on
 * the sink's clock.
 */
final class ClientIngressWorkload implements Workload
{
    @Override
    public String name()
    {
        return "client.ingress";
    }

    @Override
    public List<String> options()
    {
        return List.of(RemoteNodes.IDLE);
    }

    @Override
    public String usage()
    {
        return "  client.ingress [--idle backoff|spin]\n" +
            "                                 a client process streams (long seq, byte[16]) events to an actor on a\n" +
            "                                 node in a child process, as fast as its sends are taken; prints " +
            "events\n" +
            "                                 the actor received per second";
    }

    @Override
    public void run(final Options options) throws InterruptedException
    {
        final long warmupNs = options.warmupNs();
        final long measureNs = options.measureNs();
        Report.progress("client.ingress: warmup=%.1fs window=%.1fs", warmupNs / 1e9, measureNs / 1e9);
        try (ClientBench bench = ClientBench.start(options, 16_384))
        {
            final ServiceId sink = ServiceId.of(0, RemotePeerWorkload.SINK);
            final AtomicBoolean running = new AtomicBoolean(true);
            final long[] pushedBack = new long[1];
            final Thread streamer = new Thread(() -> stream(bench.client, sink, running, pushedBack),
                "client-streamer");
            streamer.start();
            TimeUnit.NANOSECONDS.sleep(warmupNs);
            final Tally before = (Tally)bench.ask(sink, Tally.REQUEST);
            TimeUnit.NANOSECONDS.sleep(measureNs);
            final Tally after = (Tally)bench.ask(sink, Tally.REQUEST);
            running.set(false);
            streamer.join();
            final double rate = (after.received() - before.received()) * 1e9 / (after.atNs() - before.atNs());
            Report.progress("client.ingress: %d chunks in the window, %d out of order, %d sends pushed back",
                after.received() - before.received(), after.outOfOrder(), pushedBack[0]);
            if (after.outOfOrder() != 0)
            {
                throw new IllegalStateException(after.outOfOrder() + " chunks arrived out of order");
            }
            Report.result("client.ingress", rate, "msgs/s");
        }
    }

    private static void stream(final TroupeClient client, final ServiceId sink, final AtomicBoolean running,
        final long[] pushedBack)
    {
        final byte[] data = new byte[Chunk.DATA_BYTES];
        long seq = 0;
        long refused = 0;
        while (running.get())
        {
            if (client.send(sink, new Chunk(seq, data)) == SendStatus.OK)
            {
                seq++;
            }
            else
            {
                refused++;
                Thread.yield(); // a spinning producer would take a core the client's and the node's threads need

            }
        }
        pushedBack[0] = refused;
    }
}
