package io.troupe.membership.internal;

import io.aeron.Aeron;
import io.aeron.cluster.client.AeronCluster;
import io.aeron.cluster.client.EgressListener;
import io.aeron.logbuffer.Header;
import io.troupe.membership.table.VoterAddress;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's session with the membership service, as its {@link MembershipClient} sees it: the Aeron client (whose
 * conductor runs on the membership client's thread), connecting to the voters without blocking and again after a
 * failure (after the retry interval), offering requests, and polling egress into the listener. Every request it
 * offers is sealed, and every message of the service is opened, with the session's {@link SessionGuard} (keyed by
 * the challenge of its handshake): a message without the session's tag, or replayed, is counted and dropped before
 * the listener sees it. Owned by the membership client's thread; it knows nothing of the protocol.
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

    private static final Logger LOG = LoggerFactory.getLogger(ServiceSession.class);

    private final ClientSettings settings;
    private final ErrorHandler errors;
    private final EgressListener egress;
    private final EgressListener opener = this::onEgress;
    private final UnsafeBuffer sealed = new UnsafeBuffer(new byte[SessionGuard.MAX_MESSAGE]);
    private Aeron aeron;
    private NodeCredentials credentials;
    private AeronCluster.AsyncConnect connecting;
    private AeronCluster cluster;
    private SessionGuard guard;
    private long retryAtNs;
    private RuntimeException failure;
    private volatile long noticesRejected;

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
                credentials = new NodeCredentials(settings.proof(), settings.nodeId(), settings.incarnation());
                connecting = AeronCluster.asyncConnect(new AeronCluster.Context()
                    .aeron(aeron)
                    .ownsAeronClient(false)
                    .agentInvoker(aeron.conductorAgentInvoker())
                    .ingressChannel("aeron:udp")
                    .ingressEndpoints(VoterAddress.ingressEndpoints(settings.voters()))
                    .egressChannel("aeron:udp?endpoint=" + settings.egressHost() + ":0")
                    .credentialsSupplier(credentials)
                    .errorHandler(errors)
                    .messageTimeoutNs(timeoutNs)
                    .egressListener(opener));
            }
            cluster = connecting.poll();
            if (cluster == null)
            {
                return Progress.CONNECTING;
            }
            connecting = null;
            guard = credentials.guard();
            if (guard == null)
            {
                throw new IllegalStateException("the membership service admitted this node without a challenge: " +
                    "is a voter of an older version running?");
            }
            return Progress.CONNECTED;
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietCloseAll(connecting, cluster);
            connecting = null;
            cluster = null;
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
            guard = null;
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
        if (cluster == null || cluster.isClosed())
        {
            return false;
        }
        sealed.putBytes(0, buffer, 0, length);
        return cluster.offer(sealed, 0, guard.seal(sealed, length)) > 0;
    }

    /** A message of the service: to the listener if it carries the session's tag and is not a replay. */
    private void onEgress(final long clusterSessionId, final long timestamp, final DirectBuffer buffer,
        final int offset, final int length, final Header header)
    {
        final int bodyLength = guard == null ? SessionGuard.BAD_TAG : guard.open(buffer, offset, length);
        if (bodyLength < 0)
        {
            noticesRejected++;
            LOG.debug("membership: a message of {} bytes from the service dropped ({}): no tag of this session",
                length, bodyLength == SessionGuard.REPLAYED ? "replayed" : "wrong tag or length");
            return;
        }
        egress.onMessage(clusterSessionId, timestamp, buffer, offset, bodyLength, header);
    }

    /**
     * Messages from the service dropped because they did not carry this session's tag, or were replayed.
     *
     * @return the count; read from any thread.
     */
    long noticesRejected()
    {
        return noticesRejected;
    }

    @Override
    public void close()
    {
        CloseHelper.quietCloseAll(connecting, cluster, aeron);
    }
}
