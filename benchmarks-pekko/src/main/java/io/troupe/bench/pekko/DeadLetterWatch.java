package io.troupe.bench.pekko;

import org.apache.pekko.actor.AllDeadLetters;
import org.apache.pekko.actor.DeadLetter;
import org.apache.pekko.actor.Dropped;
import org.apache.pekko.actor.UnhandledMessage;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.eventstream.EventStream;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts what a system's event stream reports as not delivered ({@link AllDeadLetters}: dead letters, dropped
 * and unhandled messages), so a run can show on stderr that it measured what it meant to: Pekko logs only the
 * first few and counts nothing. A system actor subscribed to the event stream; the counts are readable from any
 * thread.
 */
final class DeadLetterWatch
{
    private final AtomicLong deadLetters = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong unhandled = new AtomicLong();
    private final AtomicLong other = new AtomicLong();

    private DeadLetterWatch()
    {
    }

    /**
     * Starts counting on a system.
     *
     * @param system the system.
     * @return the counts.
     */
    static DeadLetterWatch start(final ActorSystem<?> system)
    {
        final DeadLetterWatch watch = new DeadLetterWatch();
        final ActorRef<AllDeadLetters> counter =
            system.systemActorOf(watch.behavior(), "bench-dead-letter-watch", Props.empty());
        system.eventStream().tell(new EventStream.Subscribe<>(AllDeadLetters.class, counter));
        return watch;
    }

    private Behavior<AllDeadLetters> behavior()
    {
        return Behaviors.receiveMessage(message ->
        {
            if (message instanceof DeadLetter)
            {
                deadLetters.incrementAndGet();
            }
            else if (message instanceof Dropped)
            {
                dropped.incrementAndGet();
            }
            else if (message instanceof UnhandledMessage)
            {
                unhandled.incrementAndGet();
            }
            else
            {
                other.incrementAndGet();
            }
            return Behaviors.same();
        });
    }

    /**
     * Everything counted so far.
     *
     * @return the sum of all counts.
     */
    long total()
    {
        return deadLetters.get() + dropped.get() + unhandled.get() + other.get();
    }

    /**
     * Prints the counts on stderr.
     *
     * @param who which node, e.g. {@code node 1}.
     */
    void report(final String who)
    {
        Report.progress("  %s: dead letters %d, dropped %d, unhandled %d, other undelivered %d", who,
            deadLetters.get(), dropped.get(), unhandled.get(), other.get());
    }
}
