package io.troupe.node.client;

import io.troupe.memquota.CounterDescriptor;

import java.util.function.ToLongFunction;

/**
 * The client ingress's node-wide levels (type ids 800..809), read from the {@link ClientIngress}; its counts are the
 * {@link ClientCounter}s.
 */
public enum ClientIngressCounter implements CounterDescriptor.Of<ClientIngress>
{
    /** Client sessions open. */
    CLIENT_SESSIONS_OPEN(800, "client_sessions_open", Kind.GAUGE, "",
        "client sessions open", ClientIngress::openSessions),
    /** Asks of clients waiting for a reply. */
    CLIENT_ASKS_PENDING(801, "client_asks_pending", Kind.GAUGE, "",
        "asks of clients waiting for a reply", ClientIngress::pendingAsks);

    private final Declaration declaration;
    private final ToLongFunction<ClientIngress> reader;

    ClientIngressCounter(final int typeId, final String metricName, final Kind kind, final String labels,
        final String doc, final ToLongFunction<ClientIngress> reader)
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
    public ToLongFunction<ClientIngress> reader()
    {
        return reader;
    }
}
