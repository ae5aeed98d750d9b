package io.troupe.membership;

import io.troupe.membership.internal.VoterSettings;
import io.troupe.membership.table.VoterAddress;
import io.troupe.memquota.ConfigurationException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Settings of a node's membership: the voters (the nodes that run the membership service; the same list, in the
 * same order, on every node), and the lease and Aeron Cluster timings, each declared in {@link MembershipSettings}.
 * A node with no voters configured has no membership: it keeps the static peer list ({@code troupe.peers}).
 */
public final class MembershipConfig
{
    /** The least time a lease must leave for an election after the voters noticed their leader gone. */
    static final Duration ELECTION_ROOM = Duration.ofSeconds(1);

    private final List<VoterAddress> voters = new ArrayList<>();
    private Duration lease = MembershipSettings.LEASE.defaultValue();
    private Duration renewInterval = MembershipSettings.RENEW_INTERVAL.defaultValue();
    private Duration safetyMargin = MembershipSettings.SAFETY_MARGIN.defaultValue();
    private Duration leaseCheck = MembershipSettings.LEASE_CHECK.defaultValue();
    private Duration joinTimeout = MembershipSettings.JOIN_TIMEOUT.defaultValue();
    private Duration retryInterval = MembershipSettings.RETRY_INTERVAL.defaultValue();
    private int firstAssignedId = MembershipSettings.FIRST_ASSIGNED_ID.defaultValue();
    private int maxMembers = MembershipSettings.MAX_MEMBERS.defaultValue();
    private Duration heartbeatTimeout = MembershipSettings.HEARTBEAT_TIMEOUT.defaultValue();
    private Duration startupCanvass = MembershipSettings.STARTUP_CANVASS.defaultValue();
    private Duration sessionTimeout = MembershipSettings.SESSION_TIMEOUT.defaultValue();
    private Duration maxIdlePark = MembershipSettings.MAX_IDLE_PARK.defaultValue();

    /**
     * Defaults, no voters.
     */
    public MembershipConfig()
    {
    }

    /**
     * Adds a voter, in the order every node lists them.
     *
     * @param voter the voter.
     * @return this.
     * @throws ConfigurationException if a voter with its id or address is already listed.
     */
    public MembershipConfig voter(final VoterAddress voter)
    {
        for (final VoterAddress listed : voters)
        {
            if (listed.nodeId() == voter.nodeId() || (listed.host().equals(voter.host()) &&
                Math.abs(listed.port() - voter.port()) < VoterAddress.PORTS))
            {
                throw invalid("voters", voter, "ids that differ, and " + VoterAddress.PORTS + " ports from each " +
                    "voter's port", "troupe.membership.voters: " + voter + " clashes with " + listed);
            }
        }
        voters.add(voter);
        return this;
    }

    /**
     * The voters, in order.
     *
     * @return a copy.
     */
    public List<VoterAddress> voters()
    {
        return List.copyOf(voters);
    }

    /**
     * Whether this node has a membership (voters configured) rather than a static peer list.
     *
     * @return true if voters are configured.
     */
    public boolean enabled()
    {
        return !voters.isEmpty();
    }

    /**
     * The voter a node id is, if any.
     *
     * @param nodeId a node id.
     * @return its place in the voter list, or -1.
     */
    public int voterIndex(final int nodeId)
    {
        for (int i = 0; i < voters.size(); i++)
        {
            if (voters.get(i).nodeId() == nodeId)
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * How long a member stays without renewing before the service downs it.
     *
     * @param value see {@link MembershipSettings#LEASE}.
     * @return this.
     * @throws ConfigurationException if out of range.
     */
    public MembershipConfig lease(final Duration value)
    {
        this.lease = MembershipSettings.LEASE.requireValid(value);
        return this;
    }

    /**
     * How long a member stays without renewing before the service downs it.
     *
     * @return the value.
     */
    public Duration lease()
    {
        return lease;
    }

    /**
     * How often a member renews its lease.
     *
     * @param value see {@link MembershipSettings#RENEW_INTERVAL}.
     * @return this.
     * @throws ConfigurationException if out of range.
     */
    public MembershipConfig renewInterval(final Duration value)
    {
        this.renewInterval = MembershipSettings.RENEW_INTERVAL.requireValid(value);
        return this;
    }

    /**
     * How often a member renews its lease.
     *
     * @return the value.
     */
    public Duration renewInterval()
    {
        return renewInterval;
    }

    /**
     * How long before the service could down it a member that cannot renew stops.
     *
     * @param value see {@link MembershipSettings#SAFETY_MARGIN}.
     * @return this.
     * @throws ConfigurationException if out of range.
     */
    public MembershipConfig safetyMargin(final Duration value)
    {
        this.safetyMargin = MembershipSettings.SAFETY_MARGIN.requireValid(value);
        return this;
    }

    /**
     * How long before the service could down it a member that cannot renew stops.
     *
     * @return the value.
     */
    public Duration safetyMargin()
    {
        return safetyMargin;
    }

    /**
     * How often the service checks the leases.
     *
     * @param value see {@link MembershipSettings#LEASE_CHECK}.
     * @return this.
     * @throws ConfigurationException if out of range.
     */
    public MembershipConfig leaseCheck(final Duration value)
    {
        this.leaseCheck = MembershipSettings.LEASE_CHECK.requireValid(value);
        return this;
    }

    /**
     * How often the service checks the leases.
     *
     * @return the value.
     */
    public Duration leaseCheck()
    {
        return leaseCheck;
    }

    /**
     * How long a starting node tries to join before it gives up.
     *
     * @param value see {@link MembershipSettings#JOIN_TIMEOUT}.
     * @return this.
     * @throws ConfigurationException if out of range.
     */
    public MembershipConfig joinTimeout(final Duration value)
    {
        this.joinTimeout = MembershipSettings.JOIN_TIMEOUT.requireValid(value);
        return this;
    }

    /**
     * How long a starting node tries to join before it gives up.
     *
     * @return the value.
     */
    public Duration joinTimeout()
    {
        return joinTimeout;
    }

    /**
     * How long after a lost connection or an unanswered join a node tries again.
     *
     * @param value see {@link MembershipSettings#RETRY_INTERVAL}.
     * @return this.
     * @throws ConfigurationException if out of range.
     */
    public MembershipConfig retryInterval(final Duration value)
    {
        this.retryInterval = MembershipSettings.RETRY_INTERVAL.requireValid(value);
        return this;
    }

    /**
     * How long after a lost connection or an unanswered join a node tries again.
     *
     * @return the value.
     */
    public Duration retryInterval()
    {
        return retryInterval;
    }

    /**
     * The first node id handed to nodes that join without one.
     *
     * @param value see {@link MembershipSettings#FIRST_ASSIGNED_ID}.
     * @return this.
     * @throws ConfigurationException if out of range.
     */
    public MembershipConfig firstAssignedId(final int value)
    {
        this.firstAssignedId = MembershipSettings.FIRST_ASSIGNED_ID.requireValid(value);
        return this;
    }

    /**
     * The first node id handed to nodes that join without one.
     *
     * @return the value.
     */
    public int firstAssignedId()
    {
        return firstAssignedId;
    }

    /**
     * Most live members.
     *
     * @param value see {@link MembershipSettings#MAX_MEMBERS}.
     * @return this.
     * @throws ConfigurationException if out of range.
     */
    public MembershipConfig maxMembers(final int value)
    {
        this.maxMembers = MembershipSettings.MAX_MEMBERS.requireValid(value);
        return this;
    }

    /**
     * Most live members.
     *
     * @return the value.
     */
    public int maxMembers()
    {
        return maxMembers;
    }

    /**
     * How long voters wait for their leader's heartbeat before an election.
     *
     * @param value see {@link MembershipSettings#HEARTBEAT_TIMEOUT}.
     * @return this.
     * @throws ConfigurationException if out of range.
     */
    public MembershipConfig heartbeatTimeout(final Duration value)
    {
        this.heartbeatTimeout = MembershipSettings.HEARTBEAT_TIMEOUT.requireValid(value);
        return this;
    }

    /**
     * How long voters wait for their leader's heartbeat before an election.
     *
     * @return the value.
     */
    public Duration heartbeatTimeout()
    {
        return heartbeatTimeout;
    }

    /**
     * How long a starting voter waits to hear all others.
     *
     * @param value see {@link MembershipSettings#STARTUP_CANVASS}.
     * @return this.
     * @throws ConfigurationException if out of range.
     */
    public MembershipConfig startupCanvass(final Duration value)
    {
        this.startupCanvass = MembershipSettings.STARTUP_CANVASS.requireValid(value);
        return this;
    }

    /**
     * How long a starting voter waits to hear all others.
     *
     * @return the value.
     */
    public Duration startupCanvass()
    {
        return startupCanvass;
    }

    /**
     * How long a node's session may stay silent.
     *
     * @param value see {@link MembershipSettings#SESSION_TIMEOUT}.
     * @return this.
     * @throws ConfigurationException if out of range.
     */
    public MembershipConfig sessionTimeout(final Duration value)
    {
        this.sessionTimeout = MembershipSettings.SESSION_TIMEOUT.requireValid(value);
        return this;
    }

    /**
     * How long a node's session may stay silent.
     *
     * @return the value.
     */
    public Duration sessionTimeout()
    {
        return sessionTimeout;
    }

    /**
     * The longest the membership's idle threads park.
     *
     * @param value see {@link MembershipSettings#MAX_IDLE_PARK}.
     * @return this.
     * @throws ConfigurationException if out of range.
     */
    public MembershipConfig maxIdlePark(final Duration value)
    {
        this.maxIdlePark = MembershipSettings.MAX_IDLE_PARK.requireValid(value);
        return this;
    }

    /**
     * The longest the membership's idle threads park.
     *
     * @return the value.
     */
    public Duration maxIdlePark()
    {
        return maxIdlePark;
    }

    /**
     * Checks what relates settings to each other.
     *
     * @return this.
     * @throws ConfigurationException naming the settings that do not fit together.
     */
    public MembershipConfig conclude()
    {
        if (voters.size() > 0 && voters.size() != 1 && voters.size() != 3 && voters.size() != 5)
        {
            throw invalid("voters", voters.size(), "1, 3 or 5 voters", "troupe.membership.voters: 1, 3 or 5 " +
                "voters (a majority must survive the loss of one or two), not " + voters.size());
        }
        if (renewInterval.plus(safetyMargin).compareTo(lease) >= 0)
        {
            throw invalid("renewInterval", renewInterval, "plus safety-margin less than the lease",
                "troupe.membership.renew-interval (" + renewInterval + ") plus safety-margin (" + safetyMargin +
                ") must be less than the lease (" + lease + ")");
        }
        if (leaseCheck.compareTo(lease) > 0)
        {
            throw invalid("leaseCheck", leaseCheck, "at most the lease", "troupe.membership.lease-check (" +
                leaseCheck + ") must be at most the lease (" + lease + ")");
        }
        if (heartbeatTimeout.plus(renewInterval).plus(safetyMargin).plus(ELECTION_ROOM).compareTo(lease) > 0)
        {
            // a leader's loss: no renewal is taken until the voters notice (heartbeat-timeout) and elect another,
            // and a member stops at lease less safety-margin after its last renewal, up to renew-interval old
            throw invalid("heartbeatTimeout", heartbeatTimeout, "with renew-interval, safety-margin and " +
                ELECTION_ROOM.toSeconds() + " s for an election, at most the lease",
                "troupe.membership.heartbeat-timeout (" + heartbeatTimeout + ") + renew-interval (" + renewInterval +
                ") + safety-margin (" + safetyMargin + ") + " + ELECTION_ROOM.toSeconds() + " s for an election " +
                "must be at most the lease (" + lease + "), or every member stops itself when the leader goes");
        }
        if (!VoterSettings.canvassFits(startupCanvass, heartbeatTimeout))
        {
            throw invalid("startupCanvass", startupCanvass, "a multiple of heartbeat-timeout, at least twice it",
                "troupe.membership.startup-canvass (" + startupCanvass + ") must be a multiple of " +
                "heartbeat-timeout (" + heartbeatTimeout + "), at least twice it");
        }
        return this;
    }

    private static ConfigurationException invalid(final String setting, final Object value, final String allowed,
        final String message)
    {
        return new ConfigurationException(setting, value, allowed, message);
    }
}
