package io.troupe.actor;

import io.troupe.memquota.CounterDescriptor;

import java.util.function.ToLongFunction;

/** The node-wide counters of credit accounts (type ids 400..409), each read from the node's {@link FlowControl}. */
public enum CreditCounter implements CounterDescriptor.Of<FlowControl>
{
    /** Credit accounts opened. */
    CREDIT_ACCOUNTS_OPENED(400, "credit_accounts_opened", Kind.COUNT, "",
        "credit accounts opened", FlowControl::accountsOpened),
    /** Credit accounts open. */
    CREDIT_ACCOUNTS_OPEN(401, "credit_accounts_open", Kind.GAUGE, "",
        "credit accounts open", FlowControl::openAccounts),
    /** FundsCleared notices sent. */
    CREDIT_CLEARED_NOTICES(402, "credit_cleared_notices", Kind.COUNT, "",
        "FundsCleared notices sent", FlowControl::clearedNotices),
    /** Shadows of other nodes' accounts. */
    CREDIT_SHADOWS(403, "credit_shadows", Kind.GAUGE, "", "shadows of other nodes' accounts", FlowControl::shadowCount),
    /** Shadows refused (table full). */
    CREDIT_SHADOWS_REFUSED(404, "credit_shadows_refused", Kind.COUNT, "",
        "shadows refused (table full)", FlowControl::shadowsRefused),
    /** Idle shadows forgotten. */
    CREDIT_SHADOWS_FORGOTTEN(405, "credit_shadows_forgotten", Kind.COUNT, "",
        "idle shadows forgotten", FlowControl::shadowsForgotten),
    /** Deltas for accounts this node does not know. */
    CREDIT_UNKNOWN_ACCOUNTS(406, "credit_unknown_accounts", Kind.COUNT, "",
        "deltas for accounts this node does not know", FlowControl::unknownAccounts),
    /** Debt written off for departed nodes. */
    CREDIT_WRITTEN_OFF(407, "credit_written_off", Kind.COUNT, "",
        "debt written off for departed nodes", FlowControl::writtenOff),
    /** Shadow debt dropped with its node. */
    CREDIT_SHADOW_DEBT_DROPPED(408, "credit_shadow_debt_dropped", Kind.COUNT, "",
        "shadow debt dropped with its node", FlowControl::shadowDebtDropped),
    /** Debt of the node's own account (sends from outside handlers). */
    CREDIT_NODE_ACCOUNT_DEBT(409, "credit_node_account_debt", Kind.GAUGE, "",
        "debt of the node's own account (sends from outside handlers)",
        c -> c.isEnabled() ? c.nodeAccount().debt() : 0);

    private final Declaration declaration;
    private final ToLongFunction<FlowControl> reader;

    CreditCounter(final int typeId, final String metricName, final Kind kind, final String labels,
        final String doc, final ToLongFunction<FlowControl> reader)
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
    public ToLongFunction<FlowControl> reader()
    {
        return reader;
    }
}
