package io.troupe.memquota;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.ToLongFunction;

/**
 * A scriptable participant for tests: reports a settable oldest data time, records every reclaim request, and
 * answers as told (collapse, partial with a hook that frees some bytes, or never).
 */
final class FakeParticipant implements Participant
{
    /** How the participant answers a reclaim request. */
    enum Mode
    {
        COLLAPSE,
        PARTIAL,
        NEVER
    }

    /** A reclaim request as the participant saw it. */
    record Request(long discardOlderThanNs, long bytesWanted)
    {
    }

    final String name;
    final List<Request> requests = new ArrayList<>();
    volatile long oldestNs = NO_DATA;
    volatile Mode mode = Mode.COLLAPSE;
    /** For PARTIAL: frees some data (release through the participation, move oldestNs) and returns bytes freed. */
    volatile ToLongFunction<Request> onPartial = r -> 0;
    Participation participation;

    FakeParticipant(final String name)
    {
        this.name = name;
    }

    static FakeParticipant register(final Account account, final String name, final long oldestNs)
    {
        final FakeParticipant participant = new FakeParticipant(name);
        participant.oldestNs = oldestNs;
        participant.participation = account.register(participant);
        return participant;
    }

    int reclaimCalls()
    {
        synchronized (requests)
        {
            return requests.size();
        }
    }

    boolean wasReclaimed()
    {
        return reclaimCalls() > 0;
    }

    @Override
    public long oldestDataTimeNs()
    {
        return oldestNs;
    }

    @Override
    public CompletionStage<Reclaimed> reclaim(final long discardOlderThanNs, final long bytesWanted)
    {
        final Request request = new Request(discardOlderThanNs, bytesWanted);
        synchronized (requests)
        {
            requests.add(request);
        }
        switch (mode)
        {
            case COLLAPSE:
                oldestNs = NO_DATA;
                return CompletableFuture.completedFuture(Reclaimed.COLLAPSING);
            case PARTIAL:
                onPartial.applyAsLong(request);
                return CompletableFuture.completedFuture(Reclaimed.PARTIAL);
            default:
                return new CompletableFuture<>();
        }
    }

    @Override
    public String toString()
    {
        return "FakeParticipant{" + name + '}';
    }
}
