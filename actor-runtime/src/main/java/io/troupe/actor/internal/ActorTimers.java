package io.troupe.actor.internal;

import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.Timers;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One actor's keyed timers, owned by the thread running its handler. Each start takes a new generation; the event is
 * sent wrapped in a {@link TimerFired} with it, and {@link #admit} hands the behaviour only an event whose generation
 * is still its key's, so a replaced or cancelled timer's event already in the mailbox is dropped.
 */
final class ActorTimers implements Timers
{
    private final LocalActorSystem system;
    private final ActorId self;
    private final Map<Object, Entry> entries = new HashMap<>();
    private int nextGeneration;

    private record Entry(int generation, ScheduledSend send, boolean repeating)
    {
    }

    ActorTimers(final LocalActorSystem system, final ActorId self)
    {
        this.system = system;
        this.self = self;
    }

    @Override
    public void startSingleTimer(final Object key, final Object event, final int type, final Duration delay)
    {
        start(key, event, type, delay, null);
    }

    @Override
    public void startTimerAtFixedRate(final Object key, final Object event, final int type,
        final Duration initialDelay, final Duration interval)
    {
        start(key, event, type, initialDelay, Objects.requireNonNull(interval, "interval"));
    }

    private void start(final Object key, final Object event, final int type, final Duration delay,
        final Duration interval)
    {
        Objects.requireNonNull(key, "key");
        final int generation = ++nextGeneration;
        // checked before the old timer goes: a refused start changes nothing
        final ScheduledSend send = system.scheduleFrom(self, delay, interval, self,
            new TimerFired(key, generation, event, type), TimerFired.TYPE, 0, null);
        final Entry old = entries.put(key, new Entry(generation, send, interval != null));
        if (old != null)
        {
            old.send.cancel();
        }
    }

    @Override
    public boolean isTimerActive(final Object key)
    {
        return entries.containsKey(key);
    }

    @Override
    public void cancel(final Object key)
    {
        final Entry entry = entries.remove(key);
        if (entry != null)
        {
            entry.send.cancel();
        }
    }

    @Override
    public void cancelAll()
    {
        for (final Entry entry : entries.values())
        {
            entry.send.cancel();
        }
        entries.clear();
    }

    /**
     * What the behaviour gets of a fired timer's envelope (which is settled here): the actor's event, or null if the
     * timer was replaced or cancelled since it fired.
     *
     * @param fired   the envelope of type {@link TimerFired#TYPE}, holding a {@link TimerFired}.
     * @param timer   its event.
     * @return an envelope of the actor's event, from itself, or null.
     */
    Envelope admit(final Envelope fired, final TimerFired timer)
    {
        fired.settle();
        final Entry entry = entries.get(timer.key());
        if (entry == null || entry.generation != timer.generation())
        {
            return null;
        }
        if (!entry.repeating)
        {
            entries.remove(timer.key());
        }
        return new Envelope(self, self, timer.type(), 0, 0L, timer.event(), null);
    }
}
