package io.troupe.actor.internal;

import java.util.concurrent.atomic.AtomicLong;

/** System-wide counters off the hot path (non-delivery, registration, failures). */
final class RuntimeCounters
{
    final AtomicLong registered = new AtomicLong();
    final AtomicLong passedAway = new AtomicLong();
    final AtomicLong undelivered = new AtomicLong();
    final AtomicLong dropped = new AtomicLong();
    final AtomicLong forwarded = new AtomicLong();
    final AtomicLong deadLetters = new AtomicLong();
    final AtomicLong handlerFailures = new AtomicLong();
    final AtomicLong rejectedSends = new AtomicLong();
    final AtomicLong collapsedMailboxes = new AtomicLong();
    /** A gauge: incremented when an ask opens its reply slot, decremented when the slot is freed. */
    final AtomicLong asksPending = new AtomicLong();
    final AtomicLong asksTimedOut = new AtomicLong();
    final AtomicLong lateReplies = new AtomicLong();
    final AtomicLong unhandledEvents = new AtomicLong();
}
