package io.troupe.membership.internal;

import io.troupe.membership.internal.sbe.ReplyCode;
import org.agrona.collections.Long2ObjectHashMap;

import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;

/** The requests of the membership client waiting for their replies, by correlation id. Owned by its thread. */
final class Long2Future
{
    private final Long2ObjectHashMap<CompletableFuture<Void>> waiting = new Long2ObjectHashMap<>();

    void put(final long correlationId, final CompletableFuture<Void> future)
    {
        waiting.put(correlationId, future);
    }

    /** Completes the request's future with the reply; false if no request waits under this id. */
    boolean complete(final long correlationId, final ReplyCode code, final String detail)
    {
        final CompletableFuture<Void> future = waiting.remove(correlationId);
        if (future == null)
        {
            return false;
        }
        if (code == ReplyCode.OK)
        {
            future.complete(null);
        }
        else
        {
            future.completeExceptionally(new IllegalStateException(code + ": " + detail));
        }
        return true;
    }

    void failAll(final String why)
    {
        for (final CompletableFuture<Void> future : new ArrayList<>(waiting.values()))
        {
            future.completeExceptionally(new IllegalStateException(why));
        }
        waiting.clear();
    }
}
