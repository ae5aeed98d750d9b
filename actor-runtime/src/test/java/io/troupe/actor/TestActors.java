package io.troupe.actor;

import io.troupe.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Small shared helpers for the system tests: recording behaviours and handlers, bounded waits, configs with
 * unique thread names.
 */
final class TestActors
{
    /** Default bound of every wait for something that should happen. */
    static final Duration WAIT = Await.DEFAULT_TIMEOUT;
    /** A user-space event type for tests. */
    static final int USER_TYPE = EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 7);

    private static final AtomicInteger PREFIXES = new AtomicInteger();

    private TestActors()
    {
    }

    /**
     * A thread name prefix no other system in this JVM uses, so a test can find exactly its own threads.
     *
     * @param base readable part.
     * @return the prefix.
     */
    static String uniquePrefix(final String base)
    {
        return "tst-" + base + PREFIXES.incrementAndGet() + "-";
    }

    /**
     * A config with a unique thread name prefix and one pool {@code "x"} of two threads.
     *
     * @param nodeId the node id.
     * @return the config.
     */
    static ActorSystemConfig config(final int nodeId)
    {
        return new ActorSystemConfig()
            .nodeId(nodeId)
            .threadNamePrefix(uniquePrefix("n" + nodeId + "x"))
            .shutdownTimeout(Duration.ofSeconds(2));
    }

    /**
     * Starts a system with one pool {@code "x"} of the given number of threads.
     *
     * @param nodeId  the node id.
     * @param threads worker threads.
     * @return the running system.
     */
    static ActorSystem start(final int nodeId, final int threads)
    {
        return ActorSystem.start(config(nodeId).pool(PoolConfig.named("x").threads(threads)));
    }

    /**
     * Asserts that nothing arrives within a window: the only place where tests wait a fixed time.
     *
     * @param queue  the queue.
     * @param window how long to watch.
     * @throws InterruptedException if interrupted.
     */
    static void assertNothingArrives(final BlockingQueue<?> queue, final Duration window) throws InterruptedException
    {
        final Object element = queue.poll(window.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(element).as("nothing should arrive within %s", window).isNull();
    }

    /**
     * Live threads whose names start with a prefix.
     *
     * @param prefix the prefix.
     * @return their names.
     */
    static List<String> liveThreads(final String prefix)
    {
        final List<String> names = new ArrayList<>();
        for (final Thread thread : Thread.getAllStackTraces().keySet())
        {
            if (thread.isAlive() && thread.getName().startsWith(prefix))
            {
                names.add(thread.getName());
            }
        }
        return names;
    }

    /**
     * Busy-waits, as a handler that does real work would (handlers must not block).
     *
     * @param nanos how long.
     */
    static void spin(final long nanos)
    {
        final long end = System.nanoTime() + nanos;
        while (System.nanoTime() - end < 0)
        {
            Thread.onSpinWait();
        }
    }

    /** Records every envelope it receives. */
    static final class Recorder implements Behavior
    {
        final BlockingQueue<Envelope> received = new LinkedBlockingQueue<>();

        @Override
        public void receive(final ActorContext ctx, final Envelope envelope)
        {
            received.add(envelope);
        }

        Envelope next() throws InterruptedException
        {
            return Await.next(received);
        }
    }

    /**
     * An actor that sends what it is told to: on a {@link Send} it sends, on anything else it records. Used to
     * observe what an actor sender gets back ({@link Undelivered} notices, replies).
     */
    static final class Probe implements Behavior
    {
        final BlockingQueue<Envelope> received = new LinkedBlockingQueue<>();

        @Override
        public void receive(final ActorContext ctx, final Envelope envelope)
        {
            if (envelope.event() instanceof Send)
            {
                final Send send = (Send)envelope.event();
                if (send.forwardTo() == null)
                {
                    ctx.send(send.to(), send.event(), send.type(), send.flags(), send.cookie());
                }
                else
                {
                    ctx.send(send.to(), send.event(), send.type(), send.flags(), send.cookie(), send.forwardTo());
                }
                if (send.thenPassAway())
                {
                    ctx.passAway();
                }
            }
            else
            {
                received.add(envelope);
            }
        }

        Envelope next() throws InterruptedException
        {
            return Await.next(received);
        }
    }

    /**
     * Tells a {@link Probe} to send.
     *
     * @param to           recipient.
     * @param event        event.
     * @param type         type id.
     * @param flags        flags.
     * @param cookie       cookie.
     * @param forwardTo    forward target or null.
     * @param thenPassAway whether the probe passes away right after sending.
     */
    record Send(ActorId to, Object event, int type, int flags, long cookie, ActorId forwardTo, boolean thenPassAway)
    {
        static Send tracked(final ActorId to, final Object event, final long cookie)
        {
            return new Send(to, event, USER_TYPE, Envelope.FLAG_TRACK_DELIVERY, cookie, null, false);
        }

        static Send untracked(final ActorId to, final Object event)
        {
            return new Send(to, event, USER_TYPE, 0, 0L, null, false);
        }
    }

    /**
     * A dead letter as the handler saw it.
     *
     * @param envelope the envelope.
     * @param reason   the reason.
     */
    record DeadLetter(Envelope envelope, UndeliveredReason reason)
    {
    }

    /** Records dead letters. */
    static final class DeadLetters implements DeadLetterHandler
    {
        final BlockingQueue<DeadLetter> received = new LinkedBlockingQueue<>();

        @Override
        public void onDeadLetter(final Envelope envelope, final UndeliveredReason reason)
        {
            received.add(new DeadLetter(envelope, reason));
        }

        DeadLetter next() throws InterruptedException
        {
            return Await.next(received);
        }
    }

    /**
     * A handler failure as the handler saw it.
     *
     * @param actor    the actor.
     * @param envelope the envelope.
     * @param error    the error.
     */
    record Failure(ActorId actor, Envelope envelope, Throwable error)
    {
    }

    /** Records handler failures. */
    static final class Failures implements FailureHandler
    {
        final BlockingQueue<Failure> received = new LinkedBlockingQueue<>();

        @Override
        public void onFailure(final ActorId actor, final Envelope envelope, final Throwable error)
        {
            received.add(new Failure(actor, envelope, error));
        }
    }

    /**
     * Checks an {@link Undelivered} notice and its envelope.
     *
     * @param envelope  the envelope the sender received.
     * @param sender    the actor that sent the original event.
     * @param recipient the id the original event was addressed to.
     * @param type      the original type.
     * @param cookie    the original cookie.
     * @param reason    the expected reason.
     */
    static void assertUndelivered(
        final Envelope envelope,
        final ActorId sender,
        final ActorId recipient,
        final int type,
        final long cookie,
        final UndeliveredReason reason)
    {
        assertThat(envelope.event()).isEqualTo(new Undelivered(recipient, type, cookie, reason, false));
        assertThat(envelope.type()).isEqualTo(Undelivered.TYPE);
        assertThat(envelope.cookie()).isEqualTo(cookie);
        assertThat(envelope.sender()).as("a notice comes from the original recipient").isEqualTo(recipient);
        assertThat(envelope.recipient()).isEqualTo(sender);
    }
}
