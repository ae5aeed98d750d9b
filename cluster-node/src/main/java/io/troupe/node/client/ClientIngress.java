package io.troupe.node.client;

import io.troupe.actor.ActorSystem;
import io.troupe.interconnect.Interconnect;
import io.troupe.registry.ClusterEndpoints;
import io.troupe.registry.ServiceRegistry;
import io.troupe.serialization.EventCodecRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * A node's door for client processes ({@code cluster-client}): they connect to the node's own endpoint on the
 * client streams, prove the client secret, and then send events and asks, look services up and subscribe to them.
 * A client is not a cluster member: it may send only application events (user type spaces) and the directory's
 * requests, each session is charged to a credit account of its own (while it is in debt the node does not read the
 * client, whose sends then see back pressure), and a session that falls silent ends after the failure timeout with
 * its ask slots freed. It has no thread of its own: its duty cycle runs in the interconnect's (which runs the
 * media driver too), so a client's message is read in the cycle that received it and a reply is sent in the next.
 *
 * <p>Started by the node when {@code troupe.client.secret} is set; {@link #count} and the other readers may be
 * called from any thread.
 */
public final class ClientIngress implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(ClientIngress.class);

    private final ClientIngressAgent agent;
    private final Interconnect interconnect;
    private volatile boolean closed;

    private ClientIngress(final ClientIngressAgent agent, final Interconnect interconnect)
    {
        this.agent = agent;
        this.interconnect = interconnect;
    }

    /**
     * Starts the ingress of a node whose interconnect admits client images
     * ({@link io.troupe.interconnect.ClientStreamSettings#imagesPerAddress} above 0).
     *
     * @param config       the ingress's settings; validated here.
     * @param system       the node's actor system.
     * @param interconnect the node's interconnect (its endpoint, driver and settings).
     * @param registry     the node's service directory, or null for a node without one (lookups then find nothing).
     * @param codecs       the node's codecs: what a client may send must have one here.
     * @return the running ingress.
     * @throws IllegalArgumentException if a setting is bad or the interconnect admits no client images.
     */
    public static ClientIngress start(
        final ClientIngressConfig config,
        final ActorSystem system,
        final Interconnect interconnect,
        final ServiceRegistry registry,
        final EventCodecRegistry codecs)
    {
        config.validate();
        if (interconnect.config().clientStreams().imagesPerAddress() <= 0)
        {
            throw new IllegalArgumentException("the interconnect admits no client images (clientImagesPerAddress 0): " +
                "its driver would refuse every client");
        }
        final ClientIngressAgent agent = new ClientIngressAgent(Objects.requireNonNull(config, "config"), system,
            interconnect.config(), interconnect.incarnation(), registry, Objects.requireNonNull(codecs, "codecs"),
            interconnect);
        interconnect.addDuty(agent);
        LOG.info("node {}: clients admitted on streams {}/{} (at most {})", system.nodeId(),
            interconnect.config().clientStreams().controlStreamId(),
            interconnect.config().clientStreams().dataStreamId(), config.maxClients());
        return new ClientIngress(agent, interconnect);
    }

    /**
     * A counter.
     *
     * @param counter which.
     * @return its value.
     */
    public long count(final ClientCounter counter)
    {
        return agent.read(counter);
    }

    /**
     * Client sessions open now.
     *
     * @return the count.
     */
    public int openSessions()
    {
        return agent.openSessions.get();
    }

    /**
     * Ask slots held now, over every session: asks whose reply has not come, nor their slot expired.
     *
     * @return the count.
     */
    public int pendingAsks()
    {
        return agent.pendingAsks.get();
    }

    /**
     * The open client sessions, as any thread may read them.
     *
     * @return a snapshot, by session id.
     */
    public List<ClientSessionStats> sessions()
    {
        final List<ClientSessionStats> list = new ArrayList<>(agent.openStats.values());
        list.sort(Comparator.comparingInt(ClientSessionStats::sessionId));
        return list;
    }

    /** Stops reading clients' events and admitting clients, while replies still go out: the node drains. */
    public void stopIntake()
    {
        agent.stopIntake();
    }

    /**
     * Where clients reach the cluster now: every open session is told, and every session that opens from now on
     * (within a millisecond or so, by the ingress's thread), so clients fail over to members that joined after
     * they connected. Called by the node as its membership changes; thread-safe.
     *
     * @param endpoints the {@code host:port} of each member up, at a membership epoch.
     */
    public void endpoints(final ClusterEndpoints endpoints)
    {
        agent.endpoints = Objects.requireNonNull(endpoints, "endpoints");
    }

    /** Says goodbye to every client and stops running on the interconnect's thread (waiting for it). Idempotent. */
    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            try
            {
                if (!interconnect.removeDuty(agent, Duration.ofSeconds(10)))
                {
                    LOG.warn("the client ingress was not closed within 10 s: is the interconnect's thread stuck?");
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }
}
