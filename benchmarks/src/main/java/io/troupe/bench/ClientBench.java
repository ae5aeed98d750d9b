package io.troupe.bench;

import io.troupe.actor.ActorId;
import io.troupe.actor.UndeliveredException;
import io.troupe.actor.UndeliveredReason;
import io.troupe.client.ClientConfig;
import io.troupe.client.TroupeClient;
import io.troupe.interconnect.IdleMode;
import io.troupe.serialization.EventCodec;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletionException;

/**
 * What the {@code client.*} workloads share: the node in a child process ({@code client.node}) and this process's
 * {@link TroupeClient} connected to it, both idling alike. Closing it closes the client, then the child.
 */
final class ClientBench implements AutoCloseable
{
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(60);

    final TroupeClient client;
    private final PeerProcess node;

    private ClientBench(final TroupeClient client, final PeerProcess node)
    {
        this.client = client;
        this.node = node;
    }

    /**
     * Starts the node and connects.
     *
     * @param options the workload's options (idle mode, threads).
     * @param credit  the node's credit threshold per client.
     * @return the pair, connected.
     */
    static ClientBench start(final Options options, final long credit)
    {
        final IdleMode idle = RemoteNodes.idle(options);
        final int port = RemoteNodes.freeUdpPort(0);
        final PeerProcess node = PeerProcess.start(List.of("client.node", "--port", Integer.toString(port),
            "--" + RemoteNodes.IDLE, idle.name().toLowerCase(Locale.ROOT),
            "--threads", Integer.toString(options.threads(RemoteNodes.DEFAULT_THREADS)),
            "--" + ClientNodeWorkload.CREDIT, Long.toString(credit)));
        try
        {
            final ClientConfig config = new ClientConfig().endpoint(RemoteNodes.HOST + ':' + port)
                .clusterId(ClientNodeWorkload.CLUSTER)
                .secret(ClientNodeWorkload.CLIENT_SECRET.getBytes(StandardCharsets.US_ASCII))
                .protection(RemoteNodes.frameProtection())
                .idleMode(idle)
                .connectTimeout(CONNECT_TIMEOUT);
            for (final EventCodec<?> codec : RemoteCodecs.codecs())
            {
                config.codec(codec);
            }
            return new ClientBench(TroupeClient.connect(config), node);
        }
        catch (final RuntimeException ex)
        {
            node.close();
            throw ex;
        }
    }

    /**
     * Asks and waits.
     *
     * @param target  the service.
     * @param request the request.
     * @return the reply.
     */
    Object ask(final ActorId target, final Object request)
    {
        final long deadlineNs = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true)
        {
            try
            {
                return client.ask(target, request, Duration.ofSeconds(10)).join();
            }
            catch (final CompletionException ex)
            {
                // the send buffer was full (a stream fills it): SHED before the ask left; try again
                if (!(ex.getCause() instanceof UndeliveredException undelivered) ||
                    undelivered.undelivered().reason() != UndeliveredReason.SHED ||
                    System.nanoTime() - deadlineNs > 0)
                {
                    throw ex;
                }
                Thread.yield();
            }
        }
    }

    @Override
    public void close()
    {
        Report.progress("  client counters: %s", client.counters());
        client.close();
        node.close();
    }
}
