package io.troupe.node.client;

import io.troupe.actor.ActorId;
import org.agrona.collections.Long2ObjectHashMap;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The actors a client session's pending asks went to, so that an ask whose actor goes before it answers fails at once
 * ({@code Undelivered(ACTOR_UNKNOWN, unsure)}) rather than at its timeout. The session's proxy watches each such actor
 * once, for as long as the session lives, up to {@value #MAX_WATCHED} actors (asks to others end at their timeout, as
 * before); an ask to a service is not watched (a service outlives its actors). The ingress agent's thread only.
 */
final class AskTargets
{
    /** Actors one session's proxy watches at most. */
    static final int MAX_WATCHED = 256;

    /** A pending ask: its actor and its event's type (for the notice). */
    record Ask(long cookie, ActorId target, int type)
    {
    }

    private final Long2ObjectHashMap<Ask> byCookie = new Long2ObjectHashMap<>();
    private final Set<ActorId> watched = new HashSet<>();

    /**
     * An ask went to an actor.
     *
     * @return true if the proxy is to watch the actor now (the first ask to it, and room for one more watch).
     */
    boolean add(final long cookie, final ActorId target, final int type)
    {
        if (target.isService() || target.isNone())
        {
            return false;
        }
        final boolean newlyWatched = !watched.contains(target) && watched.size() < MAX_WATCHED && watched.add(target);
        if (watched.contains(target))
        {
            byCookie.put(cookie, new Ask(cookie, target, type));
        }
        return newlyWatched;
    }

    /** The ask is over (answered, failed, expired): it waits for no actor any more. */
    void remove(final long cookie)
    {
        byCookie.remove(cookie);
    }

    /** The actor is gone: the pending asks to it, taken; its watch ended. */
    List<Ask> takeAsksTo(final ActorId target)
    {
        watched.remove(target);
        final List<Ask> asks = new ArrayList<>();
        for (final Ask ask : byCookie.values())
        {
            if (ask.target().equals(target))
            {
                asks.add(ask);
            }
        }
        asks.sort((a, b) -> Long.compare(a.cookie(), b.cookie()));
        for (final Ask ask : asks)
        {
            byCookie.remove(ask.cookie());
        }
        return asks;
    }

    /** The session ended. */
    void clear()
    {
        byCookie.clear();
        watched.clear();
    }
}
