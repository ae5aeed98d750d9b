package io.troupe.actor;

import java.time.Duration;

/**
 * An actor's keyed timers ({@link ActorContext#timers()}): events it sends itself later, each under a key. Starting a
 * timer under a key that has one replaces it, and an event of a replaced or cancelled timer is not delivered, even if
 * it had fired and was waiting in the mailbox. An actor's timers end when it passes away. On the node's timer wheel:
 * no thread per timer. Only from the actor's own handler.
 */
public interface Timers
{
    /**
     * Sends {@code event} to this actor once after {@code delay}, under {@code key}, replacing the key's timer.
     *
     * @param key   any value with equals and hashCode.
     * @param event the event.
     * @param type  its type id.
     * @param delay how long from now, 0 or more.
     */
    void startSingleTimer(Object key, Object event, int type, Duration delay);

    /**
     * Sends {@code event} to this actor at a fixed rate under {@code key}, replacing the key's timer: the first after
     * {@code initialDelay}, then every {@code interval}.
     *
     * @param key          any value with equals and hashCode.
     * @param event        the event, the same object every time.
     * @param type         its type id.
     * @param initialDelay how long to the first, 0 or more.
     * @param interval     between two, more than 0.
     */
    void startTimerAtFixedRate(Object key, Object event, int type, Duration initialDelay, Duration interval);

    /**
     * Whether a timer runs under the key: started, and not yet delivered (once), cancelled or replaced.
     *
     * @param key the key.
     * @return true if one does.
     */
    boolean isTimerActive(Object key);

    /**
     * Cancels the key's timer; an event of it already waiting in the mailbox is not delivered. Nothing if none runs.
     *
     * @param key the key.
     */
    void cancel(Object key);

    /** Cancels every timer of this actor. */
    void cancelAll();
}
