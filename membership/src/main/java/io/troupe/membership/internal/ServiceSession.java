package io.troupe.membership.internal;

import io.aeron.Aeron;
import io.aeron.cluster.client.AeronCluster;
import io.aeron.cluster.client.EgressListener;
import io.troupe.membership.table.VoterAddress;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;

/**
 * A node's session with the membership service, as its {@link MembershipClient} sees it: the Aeron client (whose
 * conductor runs on the membership client's thread), connecting to the voters without blocking and again after a
 * failure (after the retry interval), offering requests, and polling egress into the listener. Owned by the
 * membership client's thread; it knows nothing of the protocol.
 */
final class ServiceSession implements AutoCloseable
{
    /** What one step of connecting came to. */
    enum Progress
    {
        /** Waiting out the retry interval after a failure: no work done. */
        WAITING,
        /** Connecting: Aeron Cluster's asynchronous connect made a step. */
        CONNECTING,
        /** Connected just now: requests may be offered. */
        CONNECTED,
        /** The attempt failed ({@link #failure()} says why); the next starts after the retry interval. */
        FAILED
    }

    private final ClientSettings settings;
    private final ErrorHandler errors;
    private final EgressListener egress;
    private Aeron aeron;
    private AeronCluster.AsyncConnect connecting;
    private AeronCluster cluster;
    private long retryAtNs;
    private RuntimeException failure;

    /**
     * @param settings the node's membership settings (voters, credentials, addresses).
     * @param errors   where the Aeron client's errors go (never Aeron's default, which exits the process when the
     *                 driver stops answering).
     * @param egress   who hears the service's messages.
     */
    ServiceSession(final ClientSettings settings, final ErrorHandler errors, final EgressListener egress)
    {
        this.settings = settings;
        this.errors = errors;
        this.egress = egress;
    }

    /** Connects the Aeron client to the node's membership media driver; on the owner's thread, before the rest. */
    void open()
    {
        aeron = Aeron.connect(new Aeron.Context()
            .aeronDirectoryName(settings.aeronDir())
            .useConductorAgentInvoker(true)
            .errorHandler(errors)
            .clientName("troupe-membership-" + settings.nodeId()));
    }

    /**
     * Whether the media driver stopped answering and the Aeron client closed: nothing can be sent any more.
     *
     * @return true once the client is closed.
     */
    boolean driverGone()
    {
        return aeron.isClosed();
    }

    /**
     * Runs the Aeron client's conductor once.
     *
     * @return the work done.
     */
    int invokeConductor()
    {
        return aeron.conductorAgentInvoker().invoke();
    }

    /**
     * One step of connecting to the service.
     *
     * @param nowNs     the time now.
     * @param timeoutNs how long a new attempt may take in all (Aeron Cluster's connect deadline: every step of it,
     *                  from the publications to the voters to the service's answer); read when an attempt starts.
     * @return where connecting stands.
     */
    Progress connect(final long nowNs, final long timeoutNs)
    {
        if (nowNs - retryAtNs < 0)
        {
            return Progress.WAITING;
        }
        try
        {
            if (connecting == null)
            {
                connecting = AeronCluster.asyncConnect(new AeronCluster.Context()
                    .aeron(aeron)
                    .ownsAeronClient(false)
                    .agentInvoker(aeron.conductorAgentInvoker())
                    .ingressChannel("aeron:udp")
                    .ingressEndpoints(VoterAddress.ingressEndpoints(settings.voters()))
                    .egressChannel("aeron:udp?endpoint=" + settings.egressHost() + ":0")
                    .credentialsSupplier(new NodeCredentials(settings.proof(), settings.nodeId(),
                        settings.incarnation()))
                    .errorHandler(errors)
                    .messageTimeoutNs(timeoutNs)
                    .egressListener(egress));
            }
            cluster = connecting.poll();
            if (cluster == null)
            {
                return Progress.CONNECTING;
            }
            connecting = null;
            return Progress.CONNECTED;
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(connecting);
            connecting = null;
            retryAtNs = nowNs + settings.retryInterval().toNanos();
            failure = ex;
            return Progress.FAILED;
        }
    }

    /**
     * Why the last attempt to connect failed.
     *
     * @return the exception, or null.
     */
    RuntimeException failure()
    {
        return failure;
    }

    /**
     * The member id of the voter that leads, as the session last heard.
     *
     * @return the id, or -1 with no session.
     */
    int leaderMemberId()
    {
        return cluster == null ? -1 : cluster.leaderMemberId();
    }

    /**
     * Polls the service's messages into the egress listener.
     *
     * @return the work done.
     */
    int poll()
    {
        return cluster == null ? 0 : cluster.pollEgress();
    }

    /**
     * Whether the session closed under the client (the service closed it, or the leader went and no other answered);
     * once it says so it forgets the session, and {@link #connect} starts again.
     *
     * @return true if it was lost.
     */
    boolean lost()
    {
        if (cluster != null && cluster.isClosed())
        {
            cluster = null;
            return true;
        }
        return false;
    }

    /**
     * Offers a request to the service.
     *
     * @param buffer the request.
     * @param length its length from offset 0.
     * @return false with no session, or if the offer was refused (back-pressure): the caller tries again later.
     */
    boolean offer(final DirectBuffer buffer, final int length)
    {
        return cluster != null && !cluster.isClosed() && cluster.offer(buffer, 0, length) > 0;
    }

    @Override
    public void close()
    {
        CloseHelper.quietCloseAll(connecting, cluster, aeron);
    }
}
