package io.troupe.node.client;

import io.troupe.memquota.CounterDescriptor;

import java.util.function.ToLongFunction;

/** The counters of one client session (type ids 810..899, labels {@code client} and {@code session}). */
public enum ClientSessionCounter implements CounterDescriptor.Of<ClientSessionStats>
{
    /** Events the client session sent in. */
    CLIENT_SESSION_EVENTS_IN(810, "client_session_events_in", Kind.COUNT, "client, session",
        "events the client session sent in", ClientSessionStats::eventsIn),
    /** Asks the client session sent in. */
    CLIENT_SESSION_ASKS_IN(811, "client_session_asks_in", Kind.COUNT, "client, session",
        "asks the client session sent in", ClientSessionStats::asksIn),
    /** Messages sent to the client session. */
    CLIENT_SESSION_MESSAGES_OUT(812, "client_session_messages_out", Kind.COUNT, "client, session",
        "messages sent to the client session", ClientSessionStats::messagesOut),
    /** The session's asks waiting for a reply. */
    CLIENT_SESSION_ASKS_PENDING(813, "client_session_asks_pending", Kind.GAUGE, "client, session",
        "the session's asks waiting for a reply", ClientSessionStats::asksPending),
    /** The debt of the session's credit account. */
    CLIENT_SESSION_DEBT(814, "client_session_debt", Kind.GAUGE, "client, session",
        "the debt of the session's credit account", ClientSessionStats::debt);

    private final Declaration declaration;
    private final ToLongFunction<ClientSessionStats> reader;

    ClientSessionCounter(final int typeId, final String metricName, final Kind kind, final String labels,
        final String doc, final ToLongFunction<ClientSessionStats> reader)
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
    public ToLongFunction<ClientSessionStats> reader()
    {
        return reader;
    }
}
