package io.troupe.node.client;

import io.troupe.memquota.CounterDescriptor;

import static io.troupe.memquota.CounterDescriptor.gauge;

/**
 * The client ingress's node-wide levels (type ids 800..809), read from the {@link ClientIngress}; its counts are the
 * {@link ClientCounter}s.
 */
public enum ClientIngressCounter implements CounterDescriptor.Of<ClientIngress>
{
    /** Client sessions open. */
    CLIENT_SESSIONS_OPEN(gauge(800, "client_sessions_open", "",
        "client sessions open", ClientIngress::openSessions)),
    /** Asks of clients waiting for a reply. */
    CLIENT_ASKS_PENDING(gauge(801, "client_asks_pending", "",
        "asks of clients waiting for a reply", ClientIngress::pendingAsks));

    private final Declaration<ClientIngress> declaration;

    ClientIngressCounter(final Declaration<ClientIngress> declaration)
    {
        this.declaration = declaration;
    }

    @Override
    public Declaration<ClientIngress> declaration()
    {
        return declaration;
    }
}
