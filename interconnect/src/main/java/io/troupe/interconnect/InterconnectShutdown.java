package io.troupe.interconnect;

import io.aeron.Aeron;
import io.aeron.AeronCounters;
import io.aeron.driver.MediaDriver;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.actor.spi.RemoteTransport;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.AgentRunner;

/**
 * Takes a node's interconnect down, once, on the thread that closes it, after the {@link Interconnect} has started
 * refusing sends: {@link #close} lingers until the peers have acknowledged what was sent, stops the agent (which
 * says goodbye on its own thread), waits until the media driver has put the goodbyes on the wire, and closes Aeron
 * and the embedded driver; {@link #kill}, for tests, does it as a killed process would, without goodbyes. Holds the
 * transport's resources that only start-up and shutdown touch: the driver, the Aeron client and the agent's runner.
 */
final class InterconnectShutdown
{
    /** The longest close() waits for the media driver to put the goodbyes on the wire. */
    private static final long GOODBYE_SEND_LIMIT_NS = 500_000_000L;

    private final ActorSystem system;
    private final InterconnectConfig config;
    private final MediaDriver driver;
    /** The embedded driver's agent when it runs on the interconnect's thread, else null. */
    private final AgentInvoker driverInvoker;
    private final Aeron aeron;
    private final PeerRoster peers;
    private final InterconnectAgent agent;
    private final AgentIdle agentIdle;
    private final AgentRunner runner;

    /** Takes the parts as start-up wired them; {@code driver} and {@code driverInvoker} may be null. */
    InterconnectShutdown(
        final ActorSystem system,
        final InterconnectConfig config,
        final MediaDriver driver,
        final AgentInvoker driverInvoker,
        final Aeron aeron,
        final PeerRoster peers,
        final InterconnectAgent agent,
        final AgentIdle agentIdle,
        final AgentRunner runner)
    {
        this.system = system;
        this.config = config;
        this.driver = driver;
        this.driverInvoker = driverInvoker;
        this.aeron = aeron;
        this.peers = peers;
        this.agent = agent;
        this.agentIdle = agentIdle;
        this.runner = runner;
    }

    /**
     * Lingers (at most the failure timeout) until every connected peer has acknowledged what was queued and sent to
     * it, detaches the transport from the actor system, closes the agent's runner (the agent's {@code onClose} closes
     * its duties, says goodbye and reports what it still holds as {@code SHUTDOWN}), waits until the goodbyes are
     * sent, and closes Aeron and the driver.
     *
     * @param transport the interconnect, to detach from the actor system.
     */
    void close(final RemoteTransport transport)
    {
        linger();
        ActorSystemSpi.of(system).detachRemote(transport);
        CloseHelper.quietClose(runner); // the agent's onClose says goodbye on its own thread
        awaitGoodbyesSent();
        closeDriver();
    }

    /**
     * Stops as a killed process would, without goodbyes and without reporting anything (for tests).
     *
     * @param transport the interconnect, to detach from the actor system.
     */
    void kill(final RemoteTransport transport)
    {
        agent.skipGoodbyes();
        ActorSystemSpi.of(system).detachRemote(transport);
        CloseHelper.quietClose(runner);
        closeDriver();
    }

    private void linger()
    {
        agent.linger();
        agentIdle.signal();
        final long deadlineNs = System.nanoTime() + config.failureTimeout().toNanos();
        while (!agent.isFlushed() && System.nanoTime() - deadlineNs < 0 && runner.thread() != null &&
            !runner.isClosed())
        {
            if (!pause())
            {
                return;
            }
        }
    }

    /**
     * Waits until the media driver has sent each goodbye: an embedded driver closed at once would take a goodbye
     * still in its publication with it, and the peer would take the failure timeout to notice the departure.
     * Reads the driver's sender position of each control publication.
     */
    private void awaitGoodbyesSent()
    {
        if (aeron.isClosed())
        {
            return; // the transport is gone (see transportLost): no goodbye went out, and its counters are unmapped
        }
        final long deadlineNs = System.nanoTime() + GOODBYE_SEND_LIMIT_NS;
        for (final Peer peer : peers.all())
        {
            final long goodbyePosition = peer.goodbyePosition;
            final int counterId = goodbyePosition > 0 ? StreamCounters.find(aeron.countersReader(),
                AeronCounters.DRIVER_SENDER_POSITION_TYPE_ID, peer.control.registrationId()) : -1;
            while (counterId >= 0 && aeron.countersReader().getCounterValue(counterId) < goodbyePosition &&
                System.nanoTime() - deadlineNs < 0)
            {
                if (driverInvoker != null && driverInvoker.invoke() > 0)
                {
                    continue; // the agent has stopped: this thread runs the driver until the goodbyes are out
                }
                if (!pause())
                {
                    return;
                }
            }
        }
    }

    /** Sleeps a millisecond between two looks; false, with the thread's interrupt kept, if interrupted. */
    private static boolean pause()
    {
        try
        {
            Thread.sleep(1);
            return true;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Closes Aeron and the embedded driver, and deletes the driver's directory, which the node made. */
    private void closeDriver()
    {
        EmbeddedDriver.close(aeron, driver, config);
    }
}
