package io.troupe.interconnect;

import io.aeron.Aeron;
import io.aeron.AvailableImageHandler;
import io.aeron.ChannelUriStringBuilder;
import io.aeron.Subscription;
import io.aeron.UnavailableImageHandler;
import io.aeron.driver.MediaDriver;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.AgentErrorLog;
import io.troupe.actor.EventTypes;
import io.troupe.actor.NodeConnected;
import io.troupe.actor.NodeDisconnected;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredReason;
import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.interconnect.seal.FrameSeal;
import io.troupe.interconnect.seal.HandshakeAuth;
import io.troupe.serialization.EventCodecRegistry;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Brings a node's interconnect up, once per {@link Interconnect#start} or {@link Interconnect#startCallerDriven},
 * on the starting thread: concludes the settings and checks the codecs, launches the embedded media driver (or
 * connects to an external one) and the node's Aeron client, wires the transport (the peers' publications and
 * roster, the three inbound subscriptions, the agent, its idle strategy and runner), starts the agent's thread
 * unless the caller runs the duty cycles, and attaches the interconnect to the actor system. If any step fails,
 * Aeron and the driver it started are closed before the exception goes on.
 *
 * <p>What it wires belongs from then on to the {@link Interconnect} (sends, peers, duties) and to its
 * {@link InterconnectShutdown} (the linger, the goodbyes and the closing of Aeron and the driver).
 */
final class InterconnectStartup
{
    /** The interconnect's logger: start-up lines and the agent's errors read as the interconnect's. */
    private static final Logger LOG = LoggerFactory.getLogger(Interconnect.class);

    private InterconnectStartup()
    {
    }

    /**
     * Starts an interconnect and attaches it to its actor system.
     *
     * @param system       the node's actor system.
     * @param config       the settings; concluded here.
     * @param codecs       the codecs of every event type that crosses nodes.
     * @param clock        the clock the agent reads once per duty cycle.
     * @param callerDriven whether the caller runs the duty cycles ({@link Interconnect#dutyCycle()}) rather than
     *                     a thread of the interconnect's own.
     * @return the interconnect, attached, and running unless caller-driven.
     * @throws IllegalArgumentException if a setting is invalid or the codecs lack Troupe's own.
     */
    static Interconnect start(
        final ActorSystem system,
        final InterconnectConfig config,
        final EventCodecRegistry codecs,
        final NanoClock clock,
        final boolean callerDriven)
    {
        config.conclude(system.nodeId());
        for (final int type : new int[] {Undelivered.TYPE, NodeConnected.TYPE, NodeDisconnected.TYPE})
        {
            if (codecs.codec(type) == null)
            {
                throw new IllegalArgumentException("the interconnect's codec registry lacks Troupe's own codecs " +
                    "(type " + EventTypes.describe(type) +
                    "); build it with EventCodecRegistry.builder().withTroupeCodecs()");
            }
        }
        warnIfSpinningOnTooFewCores(system.nodeId(), config);
        FrameSeal.warmUpOnce(config.frameProtection(), "troupe-" + system.nodeId() + "-seal-warm-up");
        final Rejections rejections = new Rejections();
        final ImageGuard guard = new ImageGuard(config, rejections);
        MediaDriver driver = null;
        Aeron aeron = null;
        try
        {
            if (config.embeddedDriver())
            {
                driver = EmbeddedDriver.launch(config, system.nodeId(), guard, system.errorRecorder());
            }
            final AgentInvoker driverInvoker = driver == null ? null : driver.sharedAgentInvoker();
            aeron = EmbeddedDriver.connectClient(config, driverInvoker, system.nodeId(), system.errorRecorder());
            final long incarnation = config.incarnation() > 0 ? config.incarnation() : newIncarnation();
            final Interconnect interconnect = wire(system, config, codecs, driver, driverInvoker,
                aeron, incarnation, clock, callerDriven, guard, rejections);
            ActorSystemSpi.of(system).attachRemote(interconnect);
            LOG.info("node {}: interconnect up on {}:{} (incarnation {}), peers {}", system.nodeId(), config.bindHost(),
                config.bindPort(), incarnation, config.peers());
            return interconnect;
        }
        catch (final RuntimeException ex)
        {
            EmbeddedDriver.close(aeron, driver, config);
            throw ex;
        }
    }

    /**
     * Opens the publications to the configured peers and the inbound subscriptions, makes the agent and its runner,
     * and the interconnect over them; then starts the agent's thread unless the caller runs the duty cycles.
     */
    private static Interconnect wire(
        final ActorSystem system,
        final InterconnectConfig config,
        final EventCodecRegistry codecs,
        final MediaDriver driver,
        final AgentInvoker driverInvoker,
        final Aeron aeron,
        final long incarnation,
        final NanoClock clock,
        final boolean callerDriven,
        final ImageGuard guard,
        final Rejections rejections)
    {
        final AvailableImageHandler available = guard::onAvailable;
        // the agent once made: image handlers may run while the subscriptions are added, before it exists
        final AtomicReference<InterconnectAgent> agentOrNull = new AtomicReference<>();
        final UnavailableImageHandler unavailable = image ->
        {
            guard.onUnavailable(image);
            final InterconnectAgent current = agentOrNull.get();
            if (current != null)
            {
                current.onImageUnavailable(image);
            }
        };
        final String inbound = inboundChannel(config);
        final Subscription control = aeron.addSubscription(inbound, config.controlStreamId(), available, unavailable);
        final Subscription data = aeron.addSubscription(inbound, config.dataStreamId(), available, unavailable);
        final Subscription bulk = aeron.addSubscription(inbound, config.bulkStreamId(), available, unavailable);
        // the peers' publications only after the node's own port is bound: a publication's sending socket takes an
        // ephemeral port, and a bind port inside the ephemeral range (40100 is, on Linux) could be the one it got
        final PeerPublications publications = new PeerPublications(aeron, config);
        final PeerRoster peers = new PeerRoster(config, system, publications);
        final int sessionId = PeerPublications.newSessionId(0);
        for (final PeerAddress address : config.peers())
        {
            peers.open(address, sessionId);
        }
        final InterconnectAgent agent = new InterconnectAgent(config, system, incarnation, clock, peers,
            driverInvoker, aeron.conductorAgentInvoker(), control, data, bulk,
            new HandshakeAuth(config.clusterSecret()), codecs, rejections, publications, aeron.countersReader());
        agentOrNull.set(agent);
        // hears the Undelivered of a node notice to a subscriber that is gone, so the subscriber is forgotten
        agent.notices.janitor = system.register((ctx, envelope) ->
        {
            if (envelope.event() instanceof Undelivered notice &&
                (notice.type() == NodeConnected.TYPE || notice.type() == NodeDisconnected.TYPE) &&
                notice.reason() != UndeliveredReason.SHUTDOWN)
            {
                agent.command(() -> agent.notices.forgetSubscriber(notice.recipient()));
            }
        });
        final AgentIdle agentIdle = new AgentIdle(config.maxIdlePark().toNanos());
        // a shadow whose pending delta passes the bound wakes the agent to flush it
        system.flow().onFlushRequest(agentIdle::signal);
        final IdleStrategy idle = config.idleMode() == IdleMode.SPIN ? new BusySpinIdleStrategy() : agentIdle;
        final AgentRunner runner = new AgentRunner(idle, new AgentErrorLog(LOG, "node " + system.nodeId() +
            ": interconnect agent", system.errorRecorder()), null, agent);
        final InterconnectShutdown shutdown = new InterconnectShutdown(system, config, driver, driverInvoker, aeron,
            peers, agent, agentIdle, runner);
        final Interconnect interconnect = new Interconnect(system, config, codecs, incarnation, peers, agent, guard,
            agentIdle, callerDriven, shutdown);
        if (!callerDriven)
        {
            AgentRunner.startOnThread(runner, runnable ->
            {
                final Thread thread = new Thread(runnable, "troupe-" + system.nodeId() + "-interconnect");
                thread.setDaemon(true);
                return thread;
            });
        }
        return interconnect;
    }

    private static void warnIfSpinningOnTooFewCores(final int nodeId, final InterconnectConfig config)
    {
        final int spinners = config.idleMode() != IdleMode.SPIN ? 0 :
            config.embeddedDriver() && !config.driverOnAgentThread() ? 2 : 1;
        final int cores = Runtime.getRuntime().availableProcessors();
        if (spinners > 0 && cores < spinners + 2)
        {
            LOG.warn("node {}: idle mode SPIN keeps {} network thread(s) on a core each, and this machine has {} " +
                "cores: the pool workers (and any other node here) will wait for time slices, and latency gets " +
                "worse, not better; use BACKOFF unless each spinning thread has a core of its own", nodeId, spinners,
                cores);
        }
    }

    private static long newIncarnation()
    {
        // roughly increasing across restarts (microseconds), and unique within one
        return System.currentTimeMillis() * 1000 + new SecureRandom().nextInt(1000);
    }

    private static String inboundChannel(final InterconnectConfig config)
    {
        return new ChannelUriStringBuilder().media("udp").endpoint(config.bindHost() + ':' + config.bindPort()).build();
    }
}
