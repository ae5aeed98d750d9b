package io.troupe.membership.internal;

import io.troupe.membership.table.VoterAddress;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What a node's membership client needs: the voters (the seeds), the proof of the cluster secret, who the node is
 * and where its interconnect listens, and the timing of its lease.
 *
 * @param voters        the voters, in the order every voter has them.
 * @param proof         the cluster secret and id.
 * @param nodeId        the node id wanted, or 0 for one assigned.
 * @param incarnation   this process's incarnation (greater than any before of the same node).
 * @param host          the interconnect host peers reach this node at.
 * @param port          the interconnect port.
 * @param egressHost    the address the service's answers come back to (this host's, as the voters reach it).
 * @param aeronDir      the membership media driver's directory.
 * @param renewInterval how often the lease is renewed.
 * @param safetyMargin  how long before the service could down it the node stops, when it cannot renew.
 * @param joinTimeout   how long the first connection and join may take before the node gives up.
 * @param retryInterval how long after a lost connection or an unanswered request it tries again.
 */
public record ClientSettings(
    List<VoterAddress> voters,
    MembershipProof proof,
    int nodeId,
    long incarnation,
    String host,
    int port,
    String egressHost,
    String aeronDir,
    Duration renewInterval,
    Duration safetyMargin,
    Duration joinTimeout,
    Duration retryInterval)
{
    /**
     * Settings, checked.
     *
     * @param voters        at least one.
     * @param proof         not null.
     * @param nodeId        0..{@link MemberTable#MAX_NODE_ID}.
     * @param incarnation   positive.
     * @param host          not blank.
     * @param port          1..65535.
     * @param egressHost    not blank.
     * @param aeronDir      not null.
     * @param renewInterval positive.
     * @param safetyMargin  positive.
     * @param joinTimeout   positive.
     * @param retryInterval positive.
     */
    public ClientSettings
    {
        voters = List.copyOf(voters);
        if (voters.isEmpty())
        {
            throw new IllegalArgumentException("no voters (troupe.membership.seeds): a node needs the voters' " +
                "addresses to join");
        }
        Objects.requireNonNull(proof, "proof");
        Objects.requireNonNull(aeronDir, "aeronDir");
        if (nodeId < 0 || nodeId > MemberTable.MAX_NODE_ID || incarnation <= 0 || host == null || host.isBlank() ||
            port <= 0 || port > 65_535 || egressHost == null || egressHost.isBlank())
        {
            throw new IllegalArgumentException("not a joiner: node " + nodeId + ", incarnation " + incarnation +
                ", " + host + ":" + port + ", answers to " + egressHost);
        }
        for (final Duration duration : List.of(renewInterval, safetyMargin, joinTimeout, retryInterval))
        {
            if (duration.isNegative() || duration.isZero())
            {
                throw new IllegalArgumentException("a duration of the membership client is not positive: " +
                    duration);
            }
        }
    }
}
