package io.troupe.actor;

import java.time.Duration;

/**
 * A typed actor's keyed timers ({@link TypedContext#timers()}), with the semantics of {@link Timers}: a key's new
 * timer replaces its old one, and an event of a replaced or cancelled timer is never delivered.
 *
 * @param <T> what the actor accepts.
 */
public interface TypedTimers<T>
{
    /**
     * Sends {@code event} to this actor once after {@code delay}, under {@code key}.
     *
     * @param key   any value with equals and hashCode.
     * @param event the event.
     * @param delay how long from now, 0 or more.
     */
    void startSingleTimer(Object key, T event, Duration delay);

    /**
     * Sends {@code event} to this actor every {@code interval}, the first after one interval, under {@code key}.
     *
     * @param key      any value with equals and hashCode.
     * @param event    the event, the same object every time.
     * @param interval between two, more than 0.
     */
    void startTimerAtFixedRate(Object key, T event, Duration interval);

    /**
     * Sends {@code event} to this actor at a fixed rate under {@code key}, the first after {@code initialDelay}.
     *
     * @param key          any value with equals and hashCode.
     * @param event        the event, the same object every time.
     * @param initialDelay how long to the first, 0 or more.
     * @param interval     between two, more than 0.
     */
    void startTimerAtFixedRate(Object key, T event, Duration initialDelay, Duration interval);

    /**
     * Whether a timer runs under the key.
     *
     * @param key the key.
     * @return true if one does.
     */
    boolean isTimerActive(Object key);

    /**
     * Cancels the key's timer; an event of it already waiting is not delivered.
     *
     * @param key the key.
     */
    void cancel(Object key);

    /** Cancels every timer of this actor. */
    void cancelAll();
}
