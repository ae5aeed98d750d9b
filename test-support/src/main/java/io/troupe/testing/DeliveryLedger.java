package io.troupe.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The account a test keeps of tracked events, by cookie, to check the interconnect's promise: every tracked
 * event that was sent ends exactly once, as delivered or as one {@code Undelivered} notice, and both only when
 * the notice says it is unsure. Thread-safe: senders, receivers and notice handlers record from any thread.
 *
 * <p>{@link #violations()} lists what breaks the promise: an event delivered twice, noticed twice, delivered and
 * noticed as surely undelivered, a delivery or notice for a cookie never sent, and (once the test says nothing
 * more is in flight) an event neither delivered nor noticed.
 */
public final class DeliveryLedger
{
    private static final int MAX_LISTED = 10;

    private final Map<Long, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicLong unknownDeliveries = new AtomicLong();
    private final AtomicLong unknownNotices = new AtomicLong();

    private static final class Entry
    {
        int deliveries;
        int notices;
        int unsureNotices;
        String reason;
    }

    /**
     * Records a tracked event as sent.
     *
     * @param cookie its cookie, unique within the ledger.
     * @throws IllegalArgumentException if the cookie was recorded as sent before (a test bug).
     */
    public void sent(final long cookie)
    {
        if (entries.putIfAbsent(cookie, new Entry()) != null)
        {
            throw new IllegalArgumentException("cookie " + cookie + " recorded as sent twice");
        }
    }

    /**
     * Records a delivery, as the receiving actor saw it.
     *
     * @param cookie the event's cookie.
     */
    public void delivered(final long cookie)
    {
        final Entry entry = entries.get(cookie);
        if (entry == null)
        {
            unknownDeliveries.incrementAndGet();
            return;
        }
        synchronized (entry)
        {
            entry.deliveries++;
        }
    }

    /**
     * Records an {@code Undelivered} notice for an event.
     *
     * @param cookie the event's cookie.
     * @param unsure whether the notice says the event may have been delivered after all.
     * @param reason the notice's reason, for the report.
     */
    public void undelivered(final long cookie, final boolean unsure, final Object reason)
    {
        final Entry entry = entries.get(cookie);
        if (entry == null)
        {
            unknownNotices.incrementAndGet();
            return;
        }
        synchronized (entry)
        {
            entry.notices++;
            entry.unsureNotices += unsure ? 1 : 0;
            entry.reason = String.valueOf(reason);
        }
    }

    /**
     * Events recorded as sent.
     *
     * @return the count.
     */
    public long sentCount()
    {
        return entries.size();
    }

    /**
     * Sent events delivered at least once.
     *
     * @return the count.
     */
    public long deliveredCount()
    {
        return count(entry -> entry.deliveries > 0);
    }

    /**
     * Sent events with at least one notice.
     *
     * @return the count.
     */
    public long undeliveredCount()
    {
        return count(entry -> entry.notices > 0);
    }

    /**
     * Sent events both delivered and noticed (allowed only for unsure notices).
     *
     * @return the count.
     */
    public long deliveredAndNoticedCount()
    {
        return count(entry -> entry.deliveries > 0 && entry.notices > 0);
    }

    /**
     * Whether every sent event has ended: delivered or noticed.
     *
     * @return true if none is outstanding.
     */
    public boolean allAccountedFor()
    {
        return count(entry -> entry.deliveries == 0 && entry.notices == 0) == 0;
    }

    /**
     * What breaks exactly-once, one line per kind, with the count and up to ten cookies each; empty if nothing.
     *
     * @return the violations.
     */
    public List<String> violations()
    {
        final List<String> violations = new ArrayList<>();
        report(violations, "delivered more than once", entry -> entry.deliveries > 1);
        report(violations, "noticed as undelivered more than once", entry -> entry.notices > 1);
        report(violations, "delivered and noticed as surely undelivered",
            entry -> entry.deliveries > 0 && entry.notices > entry.unsureNotices);
        report(violations, "neither delivered nor noticed", entry -> entry.deliveries == 0 && entry.notices == 0);
        if (unknownDeliveries.get() > 0)
        {
            violations.add(unknownDeliveries.get() + " deliveries of cookies never sent");
        }
        if (unknownNotices.get() > 0)
        {
            violations.add(unknownNotices.get() + " notices for cookies never sent");
        }
        return violations;
    }

    /**
     * Asserts that every sent event ended exactly once (see {@link #violations()}).
     *
     * @throws AssertionError listing the violations, with the ledger's totals.
     */
    public void assertExactlyOnce()
    {
        final List<String> violations = violations();
        if (!violations.isEmpty())
        {
            throw new AssertionError("tracked delivery broken (" + this + "): " + String.join("; ", violations));
        }
    }

    @Override
    public String toString()
    {
        return "sent " + sentCount() + ", delivered " + deliveredCount() + ", undelivered " + undeliveredCount() +
            ", both (unsure) " + deliveredAndNoticedCount();
    }

    private interface EntryTest
    {
        boolean test(Entry entry);
    }

    private long count(final EntryTest test)
    {
        long count = 0;
        for (final Entry entry : entries.values())
        {
            synchronized (entry)
            {
                count += test.test(entry) ? 1 : 0;
            }
        }
        return count;
    }

    private void report(final List<String> violations, final String what, final EntryTest test)
    {
        long count = 0;
        final List<String> listed = new ArrayList<>();
        for (final Map.Entry<Long, Entry> cookie : entries.entrySet())
        {
            final Entry entry = cookie.getValue();
            synchronized (entry)
            {
                if (test.test(entry))
                {
                    count++;
                    if (listed.size() < MAX_LISTED)
                    {
                        listed.add(cookie.getKey() + (entry.reason == null ? "" : " (" + entry.reason + ")"));
                    }
                }
            }
        }
        if (count > 0)
        {
            violations.add(count + " " + what + ", e.g. " + String.join(", ", listed));
        }
    }
}
