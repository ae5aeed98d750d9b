package io.troupe.node;

import io.troupe.actor.ActorContext;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import io.troupe.actor.ServiceId;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * A node process for the multi-process tests: {@code troupe node} plus the echo service ({@link TestEvents}) and a sink
 * service, {@link #SINK}, that appends the cookie of every event it receives to a file, eight bytes each, one write per
 * event, so that the file tells what the node had received even when it is killed with SIGKILL (written bytes are in
 * the page cache, which outlives the process).
 *
 * <p>Arguments: {@code --received FILE} and then those of {@code troupe node}.
 */
final class TestNodeMain
{
    /** The sink service's id on every node. */
    static final ServiceId SINK = ServiceId.of(0, "sink");

    private TestNodeMain()
    {
    }

    public static void main(final String[] args)
    {
        if (args.length < 2 || !"--received".equals(args[0]))
        {
            System.err.println("usage: TestNodeMain --received FILE <troupe node options>");
            System.exit(2);
        }
        final Path received = Path.of(args[1]);
        System.exit(NodeCommand.run(Arrays.copyOfRange(args, 2, args.length), System.out, System.err,
            system ->
            {
                system.registerService(SINK, system.register(new Sink(received)));
                TestEvents.registerEcho(system);
            }, TestEvents.NOTE_CODEC));
    }

    /** Writes every cookie it receives to the file. */
    private static final class Sink implements Behavior
    {
        private final FileChannel file;
        private final ByteBuffer buffer = ByteBuffer.allocate(Long.BYTES);

        Sink(final Path path)
        {
            try
            {
                file = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }

        @Override
        public void receive(final ActorContext ctx, final Envelope envelope)
        {
            buffer.clear();
            buffer.putLong(envelope.cookie()).flip();
            try
            {
                while (buffer.hasRemaining())
                {
                    file.write(buffer);
                }
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }
    }
}
