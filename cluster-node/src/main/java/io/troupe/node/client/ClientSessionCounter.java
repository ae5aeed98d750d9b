package io.troupe.node.client;

import io.troupe.memquota.CounterDescriptor;

import static io.troupe.memquota.CounterDescriptor.count;
import static io.troupe.memquota.CounterDescriptor.gauge;

/** The counters of one client session (type ids 810..899, labels {@code client} and {@code session}). */
public enum ClientSessionCounter implements CounterDescriptor.Of<ClientSessionStats>
{
    /** Events the client session sent in. */
    CLIENT_SESSION_EVENTS_IN(count(810, "client_session_events_in", "client, session",
        "events the client session sent in", ClientSessionStats::eventsIn)),
    /** Asks the client session sent in. */
    CLIENT_SESSION_ASKS_IN(count(811, "client_session_asks_in", "client, session",
        "asks the client session sent in", ClientSessionStats::asksIn)),
    /** Messages sent to the client session. */
    CLIENT_SESSION_MESSAGES_OUT(count(812, "client_session_messages_out", "client, session",
        "messages sent to the client session", ClientSessionStats::messagesOut)),
    /** The session's asks waiting for a reply. */
    CLIENT_SESSION_ASKS_PENDING(gauge(813, "client_session_asks_pending", "client, session",
        "the session's asks waiting for a reply", ClientSessionStats::asksPending)),
    /** The debt of the session's credit account. */
    CLIENT_SESSION_DEBT(gauge(814, "client_session_debt", "client, session",
        "the debt of the session's credit account", ClientSessionStats::debt));

    private final Declaration<ClientSessionStats> declaration;

    ClientSessionCounter(final Declaration<ClientSessionStats> declaration)
    {
        this.declaration = declaration;
    }

    @Override
    public Declaration<ClientSessionStats> declaration()
    {
        return declaration;
    }
}
