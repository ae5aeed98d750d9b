package io.troupe.node;

import io.troupe.actor.ActorId;
import io.troupe.actor.DeadLetterHandler;
import io.troupe.actor.Envelope;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredReason;
import io.troupe.interconnect.Interconnect;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The node's dead-letter handler. While the actor system shuts down it refuses events from other nodes and
 * reports what is left in its mailboxes as dead letters, since its router no longer routes; a tracked event
 * whose sender is an actor of another node would then end silently for that sender. This handler answers it
 * with an {@link Undelivered} sent straight through the interconnect, which stays open until the actor system
 * has stopped. Every other dead letter is counted and logged at debug level.
 *
 * <p>Thread safe: called on any runtime thread and on the interconnect's thread; never blocks.
 */
final class RemoteDeadLetters implements DeadLetterHandler
{
    private static final Logger LOG = LoggerFactory.getLogger(RemoteDeadLetters.class);

    private final int nodeId;
    private final AtomicLong noticesSent = new AtomicLong();
    private final AtomicLong noticesLost = new AtomicLong();
    private final AtomicLong deadLetters = new AtomicLong();
    private volatile Interconnect interconnect;

    RemoteDeadLetters(final int nodeId)
    {
        this.nodeId = nodeId;
    }

    /** Starts answering remote senders through this interconnect; null stops it. */
    void interconnect(final Interconnect interconnect)
    {
        this.interconnect = interconnect;
    }

    @Override
    public void onDeadLetter(final Envelope envelope, final UndeliveredReason reason)
    {
        deadLetters.incrementAndGet();
        final ActorId sender = envelope.sender();
        final Interconnect transport = interconnect;
        if (transport == null || !envelope.isTracked() || envelope.type() == Undelivered.TYPE || sender.isNone() ||
            sender.nodeId() == 0 || sender.nodeId() == nodeId)
        {
            LOG.debug("node {}: dead letter ({}): {}", nodeId, reason, envelope);
            return;
        }
        final Undelivered notice = new Undelivered(envelope.recipient(), envelope.type(), envelope.cookie(), reason,
            false);
        final UndeliveredReason refused = transport.send(
            new Envelope(sender, envelope.recipient(), Undelivered.TYPE, 0, envelope.cookie(), notice, null));
        if (refused == null)
        {
            noticesSent.incrementAndGet();
        }
        else
        {
            noticesLost.incrementAndGet();
            LOG.debug("node {}: could not tell {} that {} was undelivered ({}): {}", nodeId, sender, envelope, reason,
                refused);
        }
    }

    long deadLetters()
    {
        return deadLetters.get();
    }

    long noticesSent()
    {
        return noticesSent.get();
    }

    long noticesLost()
    {
        return noticesLost.get();
    }
}
