package io.troupe.actor;

/**
 * Makes a scheduled event stale without cancelling the timer: once {@link #detach()} is called, timers
 * carrying this cookie fire into nothing. Thread safe.
 */
public final class SchedulerCookie
{
    private volatile boolean attached = true;

    /**
     * Creates an attached cookie.
     */
    public SchedulerCookie()
    {
    }

    /**
     * Makes every timer carrying this cookie stale. Idempotent.
     */
    public void detach()
    {
        attached = false;
    }

    /**
     * Whether timers carrying this cookie still deliver.
     *
     * @return true until {@link #detach()}.
     */
    public boolean isAttached()
    {
        return attached;
    }
}
