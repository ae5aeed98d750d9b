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
}
