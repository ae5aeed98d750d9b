package io.troupe.actor;

import io.troupe.memquota.CounterDescriptor;

/**
 * The actor system's counters (the 100 group; the node's own are beside them in {@code NodeCounter}). The system
 * keeps them in one array indexed by declaration ({@code counters.increment(SystemCounter.DROPPED)}), except the
 * mailbox table's and the timer agent's, which their owners count and the snapshot reads; a snapshot
 * ({@link SystemCounters#get}) holds them all. Adding one takes its declaration here and the line that counts it.
 */
public enum SystemCounter implements CounterDescriptor.Of<SystemCounters>
{
    /** Actors registered. */
    ACTORS_REGISTERED(101, "actors_registered", Kind.COUNT, "", "actors registered"),
    /** Actors registered and not passed away. */
    ACTORS_ALIVE(102, "actors_alive", Kind.GAUGE, "", "actors registered and not passed away"),
    /** Mailboxes ever created. */
    MAILBOXES_CREATED(103, "mailboxes_created", Kind.COUNT, "", "mailboxes ever created"),
    /** Mailboxes waiting for reuse. */
    MAILBOXES_VACANT(104, "mailboxes_vacant", Kind.GAUGE, "", "mailboxes waiting for reuse"),
    /** Undelivered notices sent to senders. */
    UNDELIVERED(105, "undelivered", Kind.COUNT, "", "Undelivered notices sent to senders"),
    /** Untracked events that could not be delivered. */
    DROPPED(106, "dropped", Kind.COUNT, "", "untracked events that could not be delivered"),
    /** Events forwarded to their forward-on-nondelivery target. */
    FORWARDED(107, "forwarded", Kind.COUNT, "", "events forwarded to their forward-on-nondelivery target"),
    /** Tracked events with nobody to notify. */
    DEAD_LETTERS(108, "dead_letters", Kind.COUNT, "", "tracked events with nobody to notify"),
    /** Exceptions thrown by handlers. */
    HANDLER_FAILURES(109, "handler_failures", Kind.COUNT, "", "exceptions thrown by handlers"),
    /** Sends refused because the node was shutting down. */
    REJECTED_SENDS(110, "rejected_sends", Kind.COUNT, "", "sends refused because the node was shutting down"),
    /** Timers requested. */
    TIMERS_SCHEDULED(111, "timers_scheduled", Kind.COUNT, "", "timers requested"),
    /** Timers delivered. */
    TIMERS_FIRED(112, "timers_fired", Kind.COUNT, "", "timers delivered"),
    /** Timers whose cookie was detached. */
    TIMERS_STALE(113, "timers_stale", Kind.COUNT, "", "timers whose cookie was detached"),
    /** Timers dropped by shutdown. */
    TIMERS_DISCARDED(114, "timers_discarded", Kind.COUNT, "", "timers dropped by shutdown"),
    /** Memory-tracked mailboxes collapsed. */
    MAILBOXES_COLLAPSED(115, "mailboxes_collapsed", Kind.COUNT, "", "memory-tracked mailboxes collapsed"),
    /** Asks whose reply slot is open. */
    ASKS_PENDING(116, "asks_pending", Kind.GAUGE, "", "asks whose reply slot is open"),
    /** Asks that ended with a timeout. */
    ASKS_TIMED_OUT(117, "asks_timed_out", Kind.COUNT, "", "asks that ended with a timeout"),
    /** Replies to a freed reply slot, dropped. */
    LATE_REPLIES(118, "late_replies", Kind.COUNT, "", "replies to a freed reply slot, dropped"),
    /** Events a typed actor did not handle. */
    UNHANDLED_EVENTS(119, "unhandled_events", Kind.COUNT, "", "events a typed actor did not handle"),
    /** Actors that passed away (with actors registered, the churn; their difference is actors alive). */
    ACTORS_PASSED_AWAY(127, "actors_passed_away", Kind.COUNT, "", "actors that passed away"),
    /** Requests to stop an actor from one that did not register it (or by name, or on another node), refused. */
    STOPS_REFUSED(128, "stops_refused", Kind.COUNT, "",
        "requests to stop an actor from one that did not register it, refused"),
    /** Watchers this node's actors hold: each is sent a Terminated when its actor goes. */
    WATCHERS_HELD(129, "watchers_held", Kind.GAUGE, "", "watchers this node's actors hold (death watch)");

    private final Declaration<SystemCounters> declaration;

    SystemCounter(final int typeId, final String metricName, final Kind kind, final String labels, final String doc)
    {
        this.declaration = new Declaration<>(typeId, metricName, kind, labels, doc, counters -> counters.get(this));
    }

    @Override
    public Declaration<SystemCounters> declaration()
    {
        return declaration;
    }
}
