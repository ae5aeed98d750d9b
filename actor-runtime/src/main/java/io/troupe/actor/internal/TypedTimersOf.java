package io.troupe.actor.internal;

import io.troupe.actor.Timers;
import io.troupe.actor.TypedTimers;

import java.time.Duration;

/**
 * A typed actor's view of its keyed timers: its events go with type 0, as its other sends to itself do.
 *
 * @param <T> what the actor accepts.
 */
final class TypedTimersOf<T> implements TypedTimers<T>
{
    private final Timers timers;

    TypedTimersOf(final Timers timers)
    {
        this.timers = timers;
    }

    @Override
    public void startSingleTimer(final Object key, final T event, final Duration delay)
    {
        timers.startSingleTimer(key, event, 0, delay);
    }

    @Override
    public void startTimerAtFixedRate(final Object key, final T event, final Duration interval)
    {
        timers.startTimerAtFixedRate(key, event, 0, interval, interval);
    }

    @Override
    public void startTimerAtFixedRate(final Object key, final T event, final Duration initialDelay,
        final Duration interval)
    {
        timers.startTimerAtFixedRate(key, event, 0, initialDelay, interval);
    }

    @Override
    public boolean isTimerActive(final Object key)
    {
        return timers.isTimerActive(key);
    }

    @Override
    public void cancel(final Object key)
    {
        timers.cancel(key);
    }

    @Override
    public void cancelAll()
    {
        timers.cancelAll();
    }
}
