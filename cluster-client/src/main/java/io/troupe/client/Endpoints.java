package io.troupe.client;

import io.troupe.registry.ClusterEndpoints;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The nodes a client may connect to: the endpoints it was given, then those the cluster told it of (the members
 * up, as the node it is connected to sees the membership), each once. The client goes round them in this order when
 * it connects and when its node goes. A newer list from the cluster replaces the older one; the given endpoints
 * always stay. Owned by the client's thread; {@link #all()} may be read from any.
 */
final class Endpoints
{
    private final List<String> given;
    private long learnedEpoch = -1;
    private List<String> learned = List.of();
    private List<String> all;
    private volatile List<String> published;
    private int next;

    Endpoints(final List<String> given)
    {
        if (given.isEmpty())
        {
            throw new IllegalArgumentException("no endpoint");
        }
        this.given = List.copyOf(given);
        this.all = this.given;
        this.published = this.all;
    }

    /**
     * The endpoint to try next; the one after it the time after.
     *
     * @return {@code host:port}.
     */
    String next()
    {
        if (next >= all.size())
        {
            next = 0;
        }
        return all.get(next++);
    }

    /**
     * How many there are: a round of attempts tries each once.
     *
     * @return at least 1.
     */
    int size()
    {
        return all.size();
    }

    /**
     * What the cluster said: taken if it is not older than the list held.
     *
     * @param update the members' endpoints at an epoch.
     * @return true if the endpoints changed.
     */
    boolean learn(final ClusterEndpoints update)
    {
        if (update.epoch() < learnedEpoch)
        {
            return false;
        }
        learnedEpoch = update.epoch();
        if (update.endpoints().equals(learned))
        {
            return false;
        }
        learned = update.endpoints();
        final Set<String> merged = new LinkedHashSet<>(given);
        merged.addAll(learned);
        final String upcoming = next < all.size() ? all.get(next) : null;
        all = List.copyOf(new ArrayList<>(merged));
        next = upcoming == null ? 0 : Math.max(0, all.indexOf(upcoming)); // the round goes on where it was
        published = all;
        return true;
    }

    /**
     * Every endpoint known now, the given ones first.
     *
     * @return an unmodifiable list.
     */
    List<String> all()
    {
        return published;
    }
}
