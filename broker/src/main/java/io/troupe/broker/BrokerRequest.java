package io.troupe.broker;

import io.troupe.actor.ActorId;

/**
 * A request waiting in one of a broker's queues for a counterparty: who asked, what it offers the
 * counterparty, and when it was sent. Immutable; owned by the broker once queued.
 *
 * <p>Times are monotonic nanoseconds of the broker's clock. {@code sentNs} is when the requester sent the
 * request if that is known on the broker's clock (a requester on the same node stamps it), else when it
 * reached the broker; the sojourn time of a request is {@code nowNs - sentNs}, and the relative time of a
 * match is {@code counterparty.sentNs - sentNs}: negative when the counterparty asked first.
 */
public final class BrokerRequest
{
    private final long ref;
    private final ActorId requester;
    private final long cookie;
    private final Object counterparty;
    private final long sentNs;
    private final Object fairKey;

    /**
     * A request.
     *
     * @param ref          the requester's reference for it (unique per requester), used to cancel it and
     *                     returned in the result.
     * @param requester    who receives the result ({@code Go} or {@code Drop}).
     * @param cookie       the cookie the result carries back (for a requester's own bookkeeping, e.g. an ask).
     * @param counterparty the value the matched counterparty receives (by default the requester's id).
     * @param sentNs       when the request was sent (see the class comment).
     * @param fairKey      the key a fair queue groups requests by; never null.
     */
    public BrokerRequest(
        final long ref,
        final ActorId requester,
        final long cookie,
        final Object counterparty,
        final long sentNs,
        final Object fairKey)
    {
        this.ref = ref;
        this.requester = requester;
        this.cookie = cookie;
        this.counterparty = counterparty;
        this.sentNs = sentNs;
        this.fairKey = fairKey;
    }

    /**
     * The requester's reference for this request.
     *
     * @return the reference.
     */
    public long ref()
    {
        return ref;
    }

    /**
     * Who receives the result.
     *
     * @return the requester.
     */
    public ActorId requester()
    {
        return requester;
    }

    /**
     * The cookie the result carries back.
     *
     * @return the cookie.
     */
    public long cookie()
    {
        return cookie;
    }

    /**
     * The value the matched counterparty receives.
     *
     * @return the value.
     */
    public Object counterparty()
    {
        return counterparty;
    }

    /**
     * When the request was sent, on the broker's clock.
     *
     * @return monotonic nanoseconds.
     */
    public long sentNs()
    {
        return sentNs;
    }

    /**
     * The key a fair queue groups this request by.
     *
     * @return the key.
     */
    public Object fairKey()
    {
        return fairKey;
    }

    /**
     * How long the request has waited by {@code nowNs}.
     *
     * @param nowNs the broker's clock now.
     * @return nanoseconds, at least 0.
     */
    public long sojournNs(final long nowNs)
    {
        return Math.max(0, nowNs - sentNs);
    }

    @Override
    public String toString()
    {
        return "BrokerRequest{ref=" + ref + ", requester=" + requester + ", sentNs=" + sentNs + '}';
    }
}
