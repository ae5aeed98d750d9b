package io.troupe.membership.internal;

import io.troupe.membership.table.Member;
import io.troupe.membership.table.MemberStatus;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.SystemNanoClock;

import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;

/** A membership client on a thread of its own, with everything its listener heard kept in order. */
final class ClientHarness implements ClientListener, AutoCloseable
{
    final ConcurrentLinkedQueue<Object> heard = new ConcurrentLinkedQueue<>();
    final MembershipClient client;
    private final AgentRunner runner;
    volatile int joinedAs;
    volatile String refused;
    volatile String leaseLost;

    ClientHarness(final MembershipHarness voters, final int nodeId, final long incarnation, final int port,
        final Duration renewInterval, final Duration margin)
    {
        client = new MembershipClient(new ClientSettings(voters.voters(),
            new MembershipProof(MembershipHarness.SECRET, MembershipHarness.CLUSTER,
                MembershipHarness.VOTERS_DIGEST), nodeId, incarnation,
            "127.0.0.1", port, "127.0.0.1", voters.clientAeronDir(), renewInterval, margin,
            Duration.ofSeconds(20), Duration.ofMillis(500)), this, SystemNanoClock.INSTANCE, voters.errors::add);
        runner = new AgentRunner(new BackoffIdleStrategy(10, 20, 1_000, 1_000_000), voters.errors::add, null,
            client);
        AgentRunner.startOnThread(runner);
    }

    /** Whether this client heard the member with the node id in the status. */
    boolean heard(final int nodeId, final MemberStatus status)
    {
        return heard.stream().anyMatch(o -> o instanceof Member m && m.nodeId() == nodeId && m.status() == status);
    }

    @Override
    public void onJoined(final int nodeId, final long epoch)
    {
        joinedAs = nodeId;
    }

    @Override
    public void onChange(final Member member)
    {
        heard.add(member);
    }

    @Override
    public void onRefused(final String why)
    {
        refused = why;
    }

    @Override
    public void onLeaseLost(final String why)
    {
        leaseLost = why;
    }

    @Override
    public void close()
    {
        CloseHelper.quietClose(runner);
    }
}
