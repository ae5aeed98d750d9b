package io.troupe.membership.internal;

import io.troupe.membership.table.VoterAddress;

import java.io.File;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What a voter needs to start: the voters (the same list, in the same order, on every voter), which of them this
 * is, where it keeps its log and snapshots, the membership media driver's directory, the proof of the cluster
 * secret, the lease, and Aeron Cluster's timeouts (generous ones: on a 2-core host with several nodes a voter's
 * threads wait for time slices, and a missed heartbeat must not start an election).
 *
 * @param voters            every voter.
 * @param index             this voter's place in {@code voters} (its Aeron Cluster member id).
 * @param clusterDir        the directory of its archive and consensus state; kept across restarts.
 * @param aeronDir          the membership media driver's directory.
 * @param proof             the cluster secret and id.
 * @param lease             how long a member stays without renewing.
 * @param leaseCheck        how often the service checks the leases.
 * @param firstAssignedId   the first node id handed to joiners that bring none.
 * @param maxMembers        the most live members.
 * @param heartbeatTimeout  how long followers wait for the leader's heartbeat before an election.
 * @param startupCanvass    how long a voter waits at start to hear every other before it elects with a majority.
 * @param sessionTimeout    how long a node's session may stay silent before the service closes it.
 * @param maxIdlePark       the longest a voter's idle threads park.
 */
public record VoterSettings(
    List<VoterAddress> voters,
    int index,
    File clusterDir,
    String aeronDir,
    MembershipProof proof,
    Duration lease,
    Duration leaseCheck,
    int firstAssignedId,
    int maxMembers,
    Duration heartbeatTimeout,
    Duration startupCanvass,
    Duration sessionTimeout,
    Duration maxIdlePark)
{
    /**
     * Settings, checked.
     *
     * @param voters           1, 3 or 5 voters.
     * @param index            in range.
     * @param clusterDir       not null.
     * @param aeronDir         not null.
     * @param proof            not null.
     * @param lease            positive.
     * @param leaseCheck       positive, at most the lease.
     * @param firstAssignedId  positive.
     * @param maxMembers       positive.
     * @param heartbeatTimeout positive.
     * @param startupCanvass   positive.
     * @param sessionTimeout   positive.
     * @param maxIdlePark      positive.
     */
    public VoterSettings
    {
        voters = List.copyOf(voters);
        if (voters.size() != 1 && voters.size() != 3 && voters.size() != 5)
        {
            throw new IllegalArgumentException("1, 3 or 5 voters, not " + voters.size() + ": " + voters);
        }
        if (index < 0 || index >= voters.size())
        {
            throw new IllegalArgumentException("voter index " + index + " out of 0.." + (voters.size() - 1));
        }
        Objects.requireNonNull(clusterDir, "clusterDir");
        Objects.requireNonNull(aeronDir, "aeronDir");
        Objects.requireNonNull(proof, "proof");
        for (final Duration duration : List.of(lease, leaseCheck, heartbeatTimeout, startupCanvass, sessionTimeout,
            maxIdlePark))
        {
            if (duration.isNegative() || duration.isZero())
            {
                throw new IllegalArgumentException("a duration of the voter is not positive: " + duration);
            }
        }
        if (!canvassFits(startupCanvass, heartbeatTimeout))
        {
            throw new IllegalArgumentException("the start-up canvass " + startupCanvass + " must be a multiple of " +
                "the heartbeat timeout " + heartbeatTimeout + ", at least twice it (Aeron Cluster's rule)");
        }
        if (leaseCheck.compareTo(lease) > 0)
        {
            throw new IllegalArgumentException("the lease check interval " + leaseCheck + " is longer than the lease " +
                lease);
        }
    }

    /**
     * This voter's address.
     *
     * @return {@code voters().get(index())}.
     */
    public VoterAddress self()
    {
        return voters.get(index);
    }

    /**
     * Aeron Cluster's rule for the start-up canvass: a multiple of the leader heartbeat timeout, at least twice it.
     *
     * @param startupCanvass   how long a starting voter canvasses.
     * @param heartbeatTimeout the leader heartbeat timeout.
     * @return whether Aeron Cluster takes the pair.
     */
    public static boolean canvassFits(final Duration startupCanvass, final Duration heartbeatTimeout)
    {
        return startupCanvass.toNanos() % heartbeatTimeout.toNanos() == 0 &&
            startupCanvass.toNanos() / heartbeatTimeout.toNanos() >= 2;
    }
}
