package io.troupe.membership.internal;

import io.aeron.cluster.client.AeronCluster;
import io.aeron.cluster.client.EgressListener;
import io.aeron.cluster.service.Cluster;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.Header;
import io.troupe.membership.table.Member;
import io.troupe.membership.table.VoterAddress;
import io.troupe.membership.internal.sbe.ReplyCode;
import io.troupe.testing.Await;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Voters in this JVM, each with its own membership media driver and directory, and raw clients of the service:
 * for the tests of the service itself, before any node is involved.
 */
final class MembershipHarness implements AutoCloseable
{
    static final byte[] SECRET = "membership-test-secret-0123456789".getBytes(StandardCharsets.US_ASCII);
    static final String CLUSTER = "test-cluster";
    /** The digest of the voter list every harness node claims (the harness checks no list of its own). */
    static final long VOTERS_DIGEST = 42L;

    private final Path dir;
    private final List<VoterAddress> voters;
    private final List<MediaDriver> drivers = new ArrayList<>();
    private final Voter[] running;
    private final VoterCounts[] counts;
    private final List<AutoCloseable> clients = new CopyOnWriteArrayList<>();
    final ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();

    MembershipHarness(final Path dir, final int voterCount)
    {
        this.dir = dir;
        this.voters = VoterPorts.voters(voterCount, 1);
        this.running = new Voter[voterCount];
        this.counts = new VoterCounts[voterCount];
        for (int i = 0; i < voterCount; i++)
        {
            drivers.add(driver(i));
            counts[i] = new VoterCounts();
        }
        drivers.add(driver(voterCount)); // the clients': a voter's process stopping leaves them running
    }

    /** The media driver of the clients, as the other nodes' processes would have it. */
    String clientAeronDir()
    {
        return aeronDir(running.length);
    }

    private MediaDriver driver(final int index)
    {
        return MediaDriver.launch(new MediaDriver.Context()
            .aeronDirectoryName(aeronDir(index))
            .threadingMode(ThreadingMode.SHARED)
            .sharedIdleStrategy(new BackoffIdleStrategy(10, 20, 1_000, 1_000_000))
            .termBufferSparseFile(true)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true));
    }

    String aeronDir(final int index)
    {
        return dir.resolve("aeron-" + index).toString();
    }

    List<VoterAddress> voters()
    {
        return voters;
    }

    VoterSettings settings(final int index, final Duration lease)
    {
        return new VoterSettings(voters, index, dir.resolve("voter-" + index).toFile(), aeronDir(index),
            new MembershipProof(SECRET, CLUSTER, VOTERS_DIGEST), lease, Duration.ofMillis(100), 100, 64,
            Duration.ofSeconds(3), Duration.ofSeconds(6), Duration.ofSeconds(10), Duration.ofMillis(1));
    }

    Voter start(final int index, final Duration lease)
    {
        running[index] = Voter.launch(settings(index, lease), counts[index], errors::add);
        return running[index];
    }

    /** Stops a voter as its process would stop: the voter, its driver, and the clients on that driver. */
    void stop(final int index)
    {
        CloseHelper.close(running[index]);
        running[index] = null;
        drivers.get(index).close();
        drivers.set(index, driver(index));
    }

    /** Has the leader's consensus module take a snapshot now, and waits until it and a follower have. */
    void snapshot(final int leader, final int follower)
    {
        final long followerBefore = running[follower].snapshots();
        final AtomicLong before = new AtomicLong(-1);
        Await.until(() ->
        {
            before.set(running[leader].requestSnapshot());
            return before.get() >= 0;
        }, Duration.ofSeconds(30), "the snapshot toggle");
        Await.until(() -> running[leader].snapshots() > before.get() && running[follower].snapshots() > followerBefore,
            Duration.ofSeconds(30), "the snapshots of voters " + leader + " and " + follower);
    }

    boolean leaderIndex(final int index)
    {
        return running[index] != null &&
            running[index].service().role() == Cluster.Role.LEADER;
    }

    VoterCounts counts(final int index)
    {
        return counts[index];
    }

    /** A raw client of the service, on the clients' driver, with what it heard kept in order. */
    Client connect(final byte[] secret, final String clusterId, final int nodeId, final long incarnation,
        final Duration timeout)
    {
        final Client client = new Client();
        final NodeCredentials credentials = new NodeCredentials(new MembershipProof(secret, clusterId, VOTERS_DIGEST),
            nodeId, incarnation);
        client.cluster = AeronCluster.connect(new AeronCluster.Context()
            .aeronDirectoryName(clientAeronDir())
            .errorHandler(errors::add)
            .ingressChannel("aeron:udp")
            .ingressEndpoints(VoterAddress.ingressEndpoints(voters))
            .egressChannel("aeron:udp?endpoint=127.0.0.1:0")
            .credentialsSupplier(credentials)
            .messageTimeoutNs(timeout.toNanos())
            .egressListener(client));
        client.guard = credentials.guard();
        clients.add(client);
        return client;
    }

    /**
     * A membership client of these voters on a thread of its own (renewing every 500 ms, a 2 s margin), closed with
     * the harness.
     */
    ClientHarness client(final int nodeId, final long incarnation, final int port)
    {
        final ClientHarness client = new ClientHarness(this, nodeId, incarnation, port, Duration.ofMillis(500),
            Duration.ofSeconds(2));
        clients.add(client);
        return client;
    }

    @Override
    public void close()
    {
        clients.forEach(CloseHelper::quietClose);
        for (int i = running.length - 1; i >= 0; i--)
        {
            CloseHelper.quietClose(running[i]);
        }
        drivers.forEach(CloseHelper::quietClose);
    }

    /** A raw client: sends requests sealed as its session's (or not), keeps every notice its session's tag opens. */
    static final class Client implements EgressListener, AutoCloseable, Notices.Listener
    {
        AeronCluster cluster;
        volatile SessionGuard guard;
        final Requests requests = new Requests();
        final AtomicInteger noticesRejected = new AtomicInteger();
        private final UnsafeBuffer sealed = new UnsafeBuffer(new byte[SessionGuard.MAX_MESSAGE]);
        final ConcurrentLinkedQueue<Object> heard = new ConcurrentLinkedQueue<>();
        private final Notices notices = new Notices(this);

        record Reply(long correlationId, long epoch, long leaseMs, int nodeId, ReplyCode code, String detail)
        {
        }

        record TableEnd(long epoch, int memberCount, int leaderMemberId)
        {
        }

        record TableMember(long epoch, Member member)
        {
        }

        /** Sends the request last encoded, sealed as its session's. */
        void send(final int length)
        {
            sealed.putBytes(0, requests.buffer(), 0, length);
            sendRaw(sealed, guard.seal(sealed, length));
        }

        /** Sends bytes as they are: the session's stream carries them, whatever they are. */
        void sendRaw(final DirectBuffer message, final int length)
        {
            final long deadline = System.nanoTime() + 5_000_000_000L;
            while (cluster.offer(message, 0, length) < 0)
            {
                if (System.nanoTime() > deadline)
                {
                    throw new IllegalStateException("the request could not be offered within 5 s");
                }
                cluster.pollEgress();
                Thread.onSpinWait();
            }
        }

        int poll()
        {
            return cluster.pollEgress();
        }

        @Override
        public void onMessage(final long clusterSessionId, final long timestamp, final DirectBuffer buffer,
            final int offset, final int length, final Header header)
        {
            final int bodyLength = guard == null ? SessionGuard.BAD_TAG : guard.open(buffer, offset, length);
            if (bodyLength < 0)
            {
                noticesRejected.incrementAndGet();
                return;
            }
            notices.onMessage(buffer, offset, bodyLength);
        }

        @Override
        public void onReply(final long correlationId, final long epoch, final long leaseMs, final int nodeId,
            final ReplyCode code, final String detail)
        {
            heard.add(new Reply(correlationId, epoch, leaseMs, nodeId, code, detail));
        }

        @Override
        public void onChanged(final Member member)
        {
            heard.add(member);
        }

        @Override
        public void onTableMember(final long epoch, final Member member, final long leaseAgeMs)
        {
            heard.add(new TableMember(epoch, member));
        }

        @Override
        public void onTableEnd(final long epoch, final long clusterTimeMs, final long leaseMs, final int memberCount,
            final int leaderMemberId)
        {
            heard.add(new TableEnd(epoch, memberCount, leaderMemberId));
        }

        @Override
        public void close()
        {
            CloseHelper.quietClose(cluster);
        }
    }
}
