package io.troupe.node.counters;

import io.troupe.memquota.CounterDescriptor;

import java.util.function.ToLongFunction;

/**
 * The node's own counters (in the 100 group beside the actor system's {@code SystemCounter}s, and one of the credit
 * group), each read from the node's parts ({@link CountersPublisher.Sources}).
 */
public enum NodeCounter implements CounterDescriptor.Of<CountersPublisher.Sources>
{
    /** Errors of the node's agents and handlers (each also in the error log). */
    AGENT_ERRORS(100, "agent_errors", Kind.COUNT, "",
        "errors of the node's agents and handlers (each also in the error log)", s -> s.errors().errors()),
    /** Dead letters of events from other nodes. */
    REMOTE_DEAD_LETTERS(120, "remote_dead_letters", Kind.COUNT, "",
        "dead letters of events from other nodes", s -> s.remoteDeadLetters().getAsLong()),
    /** Undelivered notices sent back to other nodes. */
    REMOTE_NOTICES_SENT(121, "remote_notices_sent", Kind.COUNT, "",
        "Undelivered notices sent back to other nodes", s -> s.remoteNoticesSent().getAsLong()),
    /** Undelivered notices for other nodes that could not be sent. */
    REMOTE_NOTICES_LOST(122, "remote_notices_lost", Kind.COUNT, "",
        "Undelivered notices for other nodes that could not be sent", s -> s.remoteNoticesLost().getAsLong()),
    /** 1 once a clean stop let the pools drain completely. */
    SHUTDOWN_DRAINED(123, "shutdown_drained", Kind.GAUGE, "",
        "1 once a clean stop let the pools drain completely", s -> s.shutdownDrained().getAsLong()),
    /** Control requests (drain, stop, ping) taken. */
    CONTROL_REQUESTS(124, "control_requests", Kind.COUNT, "",
        "control requests (drain, stop, ping) taken", s -> s.controlRequests().getAsLong()),
    /** Control requests refused: wrong token, or no request line in time. */
    CONTROL_REFUSED(125, "control_refused", Kind.COUNT, "",
        "control requests refused: wrong token, or no request line in time", s -> s.controlRefused().getAsLong()),
    /** Errors counted in agent_errors that the full error log had no room for. */
    AGENT_ERRORS_UNRECORDED(126, "agent_errors_unrecorded", Kind.COUNT, "",
        "errors counted in agent_errors that the full error log had no room for", s -> s.errors().unrecorded()),
    /** Open accounts beyond the first 256, not published one by one. */
    CREDIT_ACCOUNTS_UNPUBLISHED(413, "credit_accounts_unpublished", Kind.GAUGE, "",
        "open accounts beyond the first 256, not published one by one", null);

    private final Declaration declaration;
    private final ToLongFunction<CountersPublisher.Sources> reader;

    NodeCounter(final int typeId, final String metricName, final Kind kind, final String labels,
        final String doc, final ToLongFunction<CountersPublisher.Sources> reader)
    {
        this.declaration = new Declaration(typeId, metricName, kind, labels, doc);
        this.reader = reader;
    }

    @Override
    public Declaration declaration()
    {
        return declaration;
    }

    @Override
    public ToLongFunction<CountersPublisher.Sources> reader()
    {
        return reader;
    }
}
