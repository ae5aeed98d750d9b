package io.troupe.bench.pekko;

import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code remote.peer}: the other node of {@code remote.throughput} and {@code remote.rtt}, which start it as
 * their child process ({@link PeerProcess}); not meant to be run by hand.
 *
 * <p>Starts a remote actor system on {@code --port} with the dispatcher and transport settings the driver passes,
 * spawns a {@link ChunkSink} as {@code /user/}{@value RemoteNodes#SINK} and an {@link Echo} as
 * {@code /user/}{@value RemoteNodes#ECHO}, says {@value PeerProcess#READY} on stdout, and runs until its stdin
 * reaches end of file (the driver closes it, or dies). Then it prints its undelivered counts on stderr,
 * terminates the system (which closes the association and, with Aeron, the media driver and its directory) and
 * exits.
 */
final class RemotePeerWorkload implements Workload
{
    private static final long START_TIMEOUT_S = 60;

    @Override
    public String name()
    {
        return "remote.peer";
    }

    @Override
    public List<String> options()
    {
        final List<String> options = new ArrayList<>(RemoteNodes.OPTIONS);
        options.add(RemoteNodes.PORT);
        return options;
    }

    @Override
    public String usage()
    {
        return "  remote.peer --port P ...       the child node of remote.throughput and remote.rtt (started by them)";
    }

    @Override
    public void run(final Options options) throws Exception
    {
        if (!options.has(RemoteNodes.PORT))
        {
            throw new UsageException("remote.peer needs --port");
        }
        final int port = (int)options.count(RemoteNodes.PORT, 0, 1, 65535);
        // the driver passes every setting explicitly; these defaults only matter for a run by hand
        final PekkoSystems.Dispatcher dispatcher = options.dispatcher(RemoteNodes.DEFAULT_THREADS,
            RemoteThroughputWorkload.DEFAULT_EXECUTOR, RemoteThroughputWorkload.DEFAULT_THROUGHPUT);
        final RemoteNodes.Transport transport = RemoteNodes.transport(options,
            RemoteThroughputWorkload.DEFAULT_IDLE_CPU_LEVEL, RemoteThroughputWorkload.DEFAULT_INBOUND_LANES);
        Report.progress("remote.peer (pekko): %s:%d %s %s pid=%d", RemoteNodes.HOST, port, transport, dispatcher,
            ProcessHandle.current().pid());

        final CountDownLatch started = new CountDownLatch(1);
        final ActorSystem<Void> system = PekkoSystems.start(guardian(started), PekkoSystems.PEER_SYSTEM_NAME,
            PekkoSystems.config(dispatcher, transport.hocon(port)));
        try
        {
            final DeadLetterWatch undelivered = DeadLetterWatch.start(system);
            if (!started.await(START_TIMEOUT_S, TimeUnit.SECONDS))
            {
                throw new IllegalStateException("the peer's actors did not start within " + START_TIMEOUT_S + " s");
            }
            System.out.println(PeerProcess.READY);
            System.out.flush();
            awaitEndOfInput(System.in);
            Report.progress("remote.peer: stopping");
            undelivered.report("node 2 (peer)");
        }
        finally
        {
            PekkoSystems.terminate(system);
        }
    }

    private static Behavior<Void> guardian(final CountDownLatch started)
    {
        return Behaviors.setup(context ->
        {
            context.spawn(ChunkSink.create(), RemoteNodes.SINK);
            context.spawn(Echo.create(), RemoteNodes.ECHO);
            started.countDown();
            return Behaviors.empty();
        });
    }

    private static void awaitEndOfInput(final InputStream in)
    {
        final byte[] ignored = new byte[64];
        try
        {
            while (in.read(ignored) >= 0)
            {
                // the driver writes nothing; only the end of the stream matters
            }
        }
        catch (final IOException ex)
        {
            Report.progress("remote.peer: stdin failed (%s); stopping", ex);
        }
    }
}
