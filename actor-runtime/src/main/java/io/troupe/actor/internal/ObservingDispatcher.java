package io.troupe.actor.internal;

import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import io.troupe.actor.FailureHandler;
import io.troupe.actor.HandlingObserver;
import io.troupe.actor.internal.mailbox.MailboxTable;
import org.agrona.ErrorHandler;

/**
 * A {@link Dispatcher} that tells a {@link HandlingObserver} how long each event's handling took, by actor type (the
 * node's per-type histograms). A class of its own, loaded only when an observer is configured, so the common path
 * pays nothing for it, not even a check.
 */
final class ObservingDispatcher extends Dispatcher
{
    private final HandlingObserver observer;

    ObservingDispatcher(
        final Router router, final MailboxTable table, final RuntimeCounters counters,
        final FailureHandler failureHandler, final ErrorHandler recorder, final int nodeId,
        final HandlingObserver observer)
    {
        super(router, table, counters, failureHandler, recorder, nodeId);
        this.observer = observer;
    }

    @Override
    void receive(final ContextImpl ctx, final Behavior behavior, final Envelope envelope)
    {
        final long startNs = System.nanoTime();
        try
        {
            super.receive(ctx, behavior, envelope);
        }
        finally
        {
            final long nanos = System.nanoTime() - startNs;
            try
            {
                observer.handled(behavior instanceof TypedActor<?> typed ? typed.behaviorClass() : behavior.getClass(),
                    nanos);
            }
            catch (final RuntimeException ignore)
            {
                // an observer that fails must not stop the mailbox
            }
        }
    }
}
