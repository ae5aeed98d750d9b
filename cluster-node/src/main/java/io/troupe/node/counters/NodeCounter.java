package io.troupe.node.counters;

import io.troupe.memquota.CounterDescriptor;

import static io.troupe.memquota.CounterDescriptor.count;
import static io.troupe.memquota.CounterDescriptor.gauge;

/**
 * The node's own counters (in the 100 group beside the actor system's {@code SystemCounter}s, and one of the credit
 * group), each read from the node's parts ({@link CountersPublisher.Sources}).
 */
public enum NodeCounter implements CounterDescriptor.Of<CountersPublisher.Sources>
{
    /** Errors of the node's agents and handlers (each also in the error log). */
    AGENT_ERRORS(count(100, "agent_errors", "",
        "errors of the node's agents and handlers (each also in the error log)", s -> s.errors().errors())),
    /** Dead letters of events from other nodes. */
    REMOTE_DEAD_LETTERS(count(120, "remote_dead_letters", "",
        "dead letters of events from other nodes", s -> s.remoteDeadLetters().getAsLong())),
    /** Undelivered notices sent back to other nodes. */
    REMOTE_NOTICES_SENT(count(121, "remote_notices_sent", "",
        "Undelivered notices sent back to other nodes", s -> s.remoteNoticesSent().getAsLong())),
    /** Undelivered notices for other nodes that could not be sent. */
    REMOTE_NOTICES_LOST(count(122, "remote_notices_lost", "",
        "Undelivered notices for other nodes that could not be sent", s -> s.remoteNoticesLost().getAsLong())),
    /** 1 once a clean stop let the pools drain completely. */
    SHUTDOWN_DRAINED(gauge(123, "shutdown_drained", "",
        "1 once a clean stop let the pools drain completely", s -> s.shutdownDrained().getAsLong())),
    /** Control requests (drain, stop, ping) taken. */
    CONTROL_REQUESTS(count(124, "control_requests", "",
        "control requests (drain, stop, ping) taken", s -> s.controlRequests().getAsLong())),
    /** Control requests refused: wrong token, or no request line in time. */
    CONTROL_REFUSED(count(125, "control_refused", "",
        "control requests refused: wrong token, or no request line in time", s -> s.controlRefused().getAsLong())),
    /** Errors counted in agent_errors that the full error log had no room for. */
    AGENT_ERRORS_UNRECORDED(count(126, "agent_errors_unrecorded", "",
        "errors counted in agent_errors that the full error log had no room for", s -> s.errors().unrecorded())),
    /** Open accounts beyond the first 256, not published one by one. */
    CREDIT_ACCOUNTS_UNPUBLISHED(gauge(413, "credit_accounts_unpublished", "",
        "open accounts beyond the first 256, not published one by one", null));

    private final Declaration<CountersPublisher.Sources> declaration;

    NodeCounter(final Declaration<CountersPublisher.Sources> declaration)
    {
        this.declaration = declaration;
    }

    @Override
    public Declaration<CountersPublisher.Sources> declaration()
    {
        return declaration;
    }
}
