package io.troupe.registry;

import io.troupe.actor.ServiceId;

import java.nio.file.Path;

/**
 * A separate process that reads a node's directory replica, for {@link ReplicaChildProcessTest}: it looks up
 * {@code name-0 .. name-(count-1)} over and over until it has seen every one live, decoding every entry it meets
 * (a torn one would not decode), then prints {@code all <count> seen after <n> passes} and exits 0.
 * Arguments: data directory, count, timeout in seconds.
 */
public final class ReplicaWatcher
{
    private ReplicaWatcher()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final Path dataDir = Path.of(args[0]);
        final int count = Integer.parseInt(args[1]);
        final long deadline = System.nanoTime() + Long.parseLong(args[2]) * 1_000_000_000L;
        try (ReplicaReader reader = ReplicaReader.open(dataDir))
        {
            System.out.println("opened, writer node " + reader.writer()[0]);
            final boolean[] seen = new boolean[count];
            int seenCount = 0;
            int passes = 0;
            int firstSeenAtPass = -1;
            while (seenCount < count && System.nanoTime() < deadline)
            {
                passes++;
                for (int i = 0; i < count; i++)
                {
                    if (!seen[i] && !reader.lookup(ServiceId.of(0, "name-" + i)).isEmpty())
                    {
                        seen[i] = true;
                        seenCount++;
                        if (firstSeenAtPass < 0)
                        {
                            firstSeenAtPass = passes;
                        }
                    }
                }
            }
            if (seenCount < count)
            {
                System.out.println("only " + seenCount + " of " + count + " seen");
                System.exit(1);
            }
            System.out.println("all " + count + " seen after " + passes + " passes, the first at pass " +
                firstSeenAtPass);
        }
    }
}
