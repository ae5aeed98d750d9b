package io.troupe.actor.internal;

import io.troupe.actor.ActorId;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One actor's side of death watch, owned by the thread running its handler: the actors it watches (a Terminated for
 * one it no longer watches is dropped, so it gets exactly one, and none after an unwatch) and the actors that watch
 * it (each is sent a Terminated when it passes away).
 */
final class ActorWatches
{
    private final Set<ActorId> watching = new HashSet<>();
    private Set<ActorId> watchers;

    /** Starts watching; false if it already watches the target. */
    boolean startWatching(final ActorId target)
    {
        return watching.add(target);
    }

    /** Stops watching; false if it did not watch the target (unwatched, or its Terminated came already). */
    boolean stopWatching(final ActorId target)
    {
        return watching.remove(target);
    }

    boolean isWatching(final ActorId target)
    {
        return watching.contains(target);
    }

    /** A watch request reached this actor; true if the watcher is new. */
    boolean addWatcher(final ActorId watcher)
    {
        if (watchers == null)
        {
            watchers = new HashSet<>(4);
        }
        return watchers.add(watcher);
    }

    /** An unwatch reached this actor; true if the watcher was held. */
    boolean removeWatcher(final ActorId watcher)
    {
        return watchers != null && watchers.remove(watcher);
    }

    /** Those to tell of this actor's passing, taken (the set is emptied). */
    List<ActorId> takeWatchers()
    {
        if (watchers == null || watchers.isEmpty())
        {
            return List.of();
        }
        final List<ActorId> all = new ArrayList<>(watchers);
        watchers.clear();
        return all;
    }

    /** What this actor watches, taken (for the unwatches it sends as it passes away). */
    List<ActorId> takeWatching()
    {
        if (watching.isEmpty())
        {
            return List.of();
        }
        final List<ActorId> all = new ArrayList<>(watching);
        watching.clear();
        return all;
    }

    int watcherCount()
    {
        return watchers == null ? 0 : watchers.size();
    }
}
