package io.troupe.actor.internal;

import io.troupe.actor.ActorId;
import io.troupe.actor.Cancellable;
import io.troupe.actor.Envelope;
import io.troupe.actor.SchedulerCookie;
import io.troupe.actor.internal.scheduler.TimerTask;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A send the timer makes later, once or at a fixed rate, to any recipient: a fresh envelope for each run, handed to
 * the system's send path on the timer's thread (charged and routed like a send from outside any actor).
 *
 * <p>Its state makes {@link #cancel()} exact: a run takes the send from ACTIVE to FIRING before it delivers, and a
 * cancel takes it from ACTIVE to CANCELLED; whichever comes first wins. A cancel that finds a repeating send FIRING
 * marks it, and that run ends it after the event it was delivering.
 */
final class ScheduledSend implements Cancellable, TimerTask
{
    private static final int ACTIVE = 0;
    private static final int FIRING = 1;
    private static final int CANCEL_WHILE_FIRING = 2;
    private static final int CANCELLED = 3;
    private static final int DONE = 4;
    private static final VarHandle STATE;

    static
    {
        try
        {
            STATE = MethodHandles.lookup().findVarHandle(ScheduledSend.class, "state", int.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final Consumer<Envelope> send;
    private final ActorId recipient;
    private final ActorId sender;
    private final Object event;
    private final int type;
    private final int flags;
    private final long periodNs;
    private final SchedulerCookie cookie;
    @SuppressWarnings("unused") // accessed through STATE
    private volatile int state;

    /**
     * A scheduled send.
     *
     * @param send      the send path each run's envelope goes to.
     * @param recipient whom to send to.
     * @param sender    the sender the recipient sees ({@link ActorId#NONE} from outside any actor).
     * @param event     the event, sent as it is at every run.
     * @param type      its type id.
     * @param flags     envelope flags.
     * @param periodNs  0 for once, else the fixed rate's period.
     * @param cookie    detach it to make the send stale; may be null.
     */
    ScheduledSend(final Consumer<Envelope> send, final ActorId recipient, final ActorId sender, final Object event,
        final int type, final int flags, final long periodNs, final SchedulerCookie cookie)
    {
        this.send = send;
        this.recipient = recipient;
        this.sender = sender;
        this.event = event;
        this.type = type;
        this.flags = flags;
        this.periodNs = periodNs;
        this.cookie = cookie;
    }

    /**
     * Makes a scheduled send, checked.
     *
     * @throws IllegalArgumentException if the delay is negative or the interval not positive.
     */
    static ScheduledSend of(final Consumer<Envelope> send, final Duration initialDelay, final Duration interval,
        final ActorId recipient, final ActorId sender, final Object event, final int type, final int flags,
        final SchedulerCookie cookie)
    {
        Objects.requireNonNull(initialDelay, "initialDelay");
        Objects.requireNonNull(recipient, "recipient");
        if (initialDelay.isNegative())
        {
            throw new IllegalArgumentException("initialDelay must be 0 or more: " + initialDelay);
        }
        if (interval != null && (interval.isNegative() || interval.isZero()))
        {
            throw new IllegalArgumentException("interval must be more than 0: " + interval);
        }
        return new ScheduledSend(send, recipient, sender, event, type, flags,
            interval == null ? 0 : saturatedNanos(interval), cookie);
    }

    /** The delay to the first run, in nanoseconds (a delay of centuries is as good as never). */
    static long saturatedNanos(final Duration duration)
    {
        try
        {
            return duration.toNanos();
        }
        catch (final ArithmeticException ex)
        {
            return Long.MAX_VALUE / 2;
        }
    }

    @Override
    public long fire()
    {
        if (!STATE.compareAndSet(this, ACTIVE, FIRING))
        {
            return SKIPPED;
        }
        if (cookie != null && !cookie.isAttached())
        {
            state = DONE;
            return SKIPPED;
        }
        send.accept(new Envelope(recipient, sender, type, flags, 0L, event, null));
        if (periodNs == 0)
        {
            state = DONE;
            return TimerTask.DONE;
        }
        if (STATE.compareAndSet(this, FIRING, ACTIVE))
        {
            return periodNs;
        }
        state = CANCELLED; // cancelled while it delivered: that was the last event
        return TimerTask.DONE;
    }

    @Override
    public boolean cancel()
    {
        while (true)
        {
            final int current = state;
            if (current == ACTIVE)
            {
                if (STATE.compareAndSet(this, ACTIVE, CANCELLED))
                {
                    return true;
                }
            }
            else if (current == FIRING && periodNs != 0)
            {
                if (STATE.compareAndSet(this, FIRING, CANCEL_WHILE_FIRING))
                {
                    return true;
                }
            }
            else
            {
                return false; // a one-time send that is firing or fired, or cancelled or stale before
            }
        }
    }

    @Override
    public boolean isCancelled()
    {
        final int current = state;
        return current == CANCELLED || current == CANCEL_WHILE_FIRING;
    }

    /** Whether it will send no more: fired once, cancelled, or stale. */
    boolean isOver()
    {
        final int current = state;
        return current == CANCELLED || current == DONE;
    }

    @Override
    public String toString()
    {
        return "ScheduledSend{to=" + recipient + ", event=" + event + (periodNs == 0 ? "" : ", every " + periodNs +
            " ns") + '}';
    }
}
