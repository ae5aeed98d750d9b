package io.troupe.registry;

import io.troupe.actor.ActorId;
import io.troupe.actor.ServiceId;
import io.troupe.interconnect.DirectoryUpdate;
import io.troupe.serialization.wire.DirectoryEntry;
import io.troupe.serialization.wire.DirectoryOp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one peer announced of its services, as this node holds it: the peer's incarnation, the version of its
 * directory the last update brought, and its instances. The rules, for an update of the peer:
 * <ul>
 * <li>of an older incarnation than held: stale, ignored;</li>
 * <li>of a newer incarnation: everything held of the older one goes first (replaced, never merged);</li>
 * <li>a snapshot of a newer version than held replaces what is held; a snapshot of the version held adds to it
 *     (the further parts of one snapshot share its version); an older one is stale;</li>
 * <li>a delta of a newer version applies its registrations and removals; a delta of the version held or older is
 *     stale.</li>
 * </ul>
 * When the session with the peer ends, everything held goes ({@link #clear}) and the next session's snapshot
 * brings it back. Owned by the {@link Directory}'s monitor.
 */
final class PeerDirectory
{
    /** What an update changed. */
    record Change(List<ServiceInstance> added, List<ServiceInstance> removed, int refused)
    {
    }

    private final int nodeId;
    private long incarnation;
    private long version = -1;
    /** Instances by (service, actor). */
    private final Map<Key, ServiceInstance> instances = new LinkedHashMap<>();

    private record Key(ServiceId service, ActorId actor)
    {
    }

    PeerDirectory(final int nodeId)
    {
        this.nodeId = nodeId;
    }

    /**
     * Applies an update.
     *
     * @param update the update.
     * @param room   instances the directory may still take.
     * @return what changed, or null if the update was stale.
     */
    Change apply(final DirectoryUpdate update, final int room)
    {
        final List<ServiceInstance> removed = new ArrayList<>();
        if (update.incarnation() < incarnation)
        {
            return null;
        }
        if (update.incarnation() > incarnation)
        {
            removed.addAll(clear());
            incarnation = update.incarnation();
        }
        final boolean newer = update.version() > version;
        if (!newer && !(update.snapshot() && update.version() == version))
        {
            return removed.isEmpty() ? null : new Change(List.of(), removed, 0);
        }
        version = update.version();
        final List<ServiceInstance> added = new ArrayList<>();
        Map<Key, ServiceInstance> before = null;
        int free = room;
        if (update.snapshot() && newer)
        {
            // a whole new picture: what it lacks goes, what it adds comes, what it repeats stays as it was
            before = new LinkedHashMap<>(instances);
            free += instances.size();
            instances.clear();
        }
        int refused = 0;
        for (final DirectoryEntry entry : update.entries())
        {
            final Key key = new Key(entry.service(), entry.actor());
            if (entry.op() == DirectoryOp.UNREGISTER)
            {
                final ServiceInstance gone = instances.remove(key);
                if (gone != null)
                {
                    free++;
                    if (before == null)
                    {
                        removed.add(gone);
                    }
                }
            }
            else if (!instances.containsKey(key))
            {
                if (free <= 0)
                {
                    refused++;
                    continue;
                }
                final ServiceInstance kept = before == null ? null : before.remove(key);
                final ServiceInstance instance = kept != null ? kept :
                    new ServiceInstance(entry.service(), entry.actor(), incarnation);
                instances.put(key, instance);
                free--;
                if (kept == null)
                {
                    added.add(instance);
                }
            }
        }
        if (before != null)
        {
            removed.addAll(before.values()); // held before, not in the snapshot
        }
        return new Change(added, removed, refused);
    }

    /** Drops everything held (the session ended); the incarnation is kept, the version forgotten. */
    List<ServiceInstance> clear()
    {
        final List<ServiceInstance> gone = new ArrayList<>(instances.values());
        instances.clear();
        version = -1;
        return gone;
    }

    int nodeId()
    {
        return nodeId;
    }
}
