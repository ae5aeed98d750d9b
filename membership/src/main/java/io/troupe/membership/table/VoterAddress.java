package io.troupe.membership.table;

import java.util.List;
import java.util.Objects;

/**
 * Where one voter of the membership service listens: a node that runs a member of the Aeron Cluster that keeps the
 * member table. Its Aeron Cluster endpoints take five consecutive UDP ports from {@code port}: client ingress
 * ({@code port}), consensus ({@code +1}), log ({@code +2}), catch-up ({@code +3}) and archive control
 * ({@code +4}).
 *
 * @param nodeId the voter's node id.
 * @param host   its host (name or address) as the other voters and the nodes reach it.
 * @param port   the first of its five ports.
 */
public record VoterAddress(int nodeId, String host, int port)
{
    /** How many consecutive ports a voter takes. */
    public static final int PORTS = 5;

    /**
     * A voter address, checked.
     *
     * @param nodeId positive.
     * @param host   not blank.
     * @param port   1..65531 (five ports must fit).
     */
    public VoterAddress
    {
        Objects.requireNonNull(host, "host");
        if (nodeId <= 0 || host.isBlank() || port <= 0 || port > 65_536 - PORTS)
        {
            throw new IllegalArgumentException("not a voter: {id " + nodeId + ", host '" + host + "', port " + port +
                "} (a positive id, a host, and a port with the four after it free: 1.." + (65_536 - PORTS) + ")");
        }
    }

    /**
     * The client ingress endpoint.
     *
     * @return {@code host:port}.
     */
    public String ingress()
    {
        return host + ":" + port;
    }

    /**
     * Aeron Cluster's members string for a list of voters, each voter's member id its index in the list.
     *
     * @param voters the voters, in the same order on every voter.
     * @return {@code 0,ingress,consensus,log,catchup,archive|1,...}.
     */
    public static String clusterMembers(final List<VoterAddress> voters)
    {
        final StringBuilder members = new StringBuilder();
        for (int i = 0; i < voters.size(); i++)
        {
            final VoterAddress voter = voters.get(i);
            members.append(i > 0 ? "|" : "").append(i);
            for (int offset = 0; offset < PORTS; offset++)
            {
                members.append(',').append(voter.host()).append(':').append(voter.port() + offset);
            }
        }
        return members.toString();
    }

    /**
     * The ingress endpoints of a list of voters, for a client of the membership service.
     *
     * @param voters the voters.
     * @return {@code 0=host:port,1=host:port,...}.
     */
    public static String ingressEndpoints(final List<VoterAddress> voters)
    {
        final StringBuilder endpoints = new StringBuilder();
        for (int i = 0; i < voters.size(); i++)
        {
            endpoints.append(i > 0 ? "," : "").append(i).append('=').append(voters.get(i).ingress());
        }
        return endpoints.toString();
    }
}
