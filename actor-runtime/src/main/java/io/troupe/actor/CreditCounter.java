package io.troupe.actor;

import io.troupe.memquota.CounterDescriptor;

import static io.troupe.memquota.CounterDescriptor.count;
import static io.troupe.memquota.CounterDescriptor.gauge;

/** The node-wide counters of credit accounts (type ids 400..409), each read from the node's {@link FlowControl}. */
public enum CreditCounter implements CounterDescriptor.Of<FlowControl>
{
    /** Credit accounts opened. */
    CREDIT_ACCOUNTS_OPENED(count(400, "credit_accounts_opened", "",
        "credit accounts opened", FlowControl::accountsOpened)),
    /** Credit accounts open. */
    CREDIT_ACCOUNTS_OPEN(gauge(401, "credit_accounts_open", "",
        "credit accounts open", FlowControl::openAccounts)),
    /** FundsCleared notices sent. */
    CREDIT_CLEARED_NOTICES(count(402, "credit_cleared_notices", "",
        "FundsCleared notices sent", FlowControl::clearedNotices)),
    /** Shadows of other nodes' accounts. */
    CREDIT_SHADOWS(gauge(403, "credit_shadows", "", "shadows of other nodes' accounts", FlowControl::shadowCount)),
    /** Shadows refused (table full). */
    CREDIT_SHADOWS_REFUSED(count(404, "credit_shadows_refused", "",
        "shadows refused (table full)", FlowControl::shadowsRefused)),
    /** Idle shadows forgotten. */
    CREDIT_SHADOWS_FORGOTTEN(count(405, "credit_shadows_forgotten", "",
        "idle shadows forgotten", FlowControl::shadowsForgotten)),
    /** Deltas for accounts this node does not know. */
    CREDIT_UNKNOWN_ACCOUNTS(count(406, "credit_unknown_accounts", "",
        "deltas for accounts this node does not know", FlowControl::unknownAccounts)),
    /** Debt written off for departed nodes. */
    CREDIT_WRITTEN_OFF(count(407, "credit_written_off", "",
        "debt written off for departed nodes", FlowControl::writtenOff)),
    /** Shadow debt dropped with its node. */
    CREDIT_SHADOW_DEBT_DROPPED(count(408, "credit_shadow_debt_dropped", "",
        "shadow debt dropped with its node", FlowControl::shadowDebtDropped)),
    /** Debt of the node's own account (sends from outside handlers). */
    CREDIT_NODE_ACCOUNT_DEBT(gauge(409, "credit_node_account_debt", "",
        "debt of the node's own account (sends from outside handlers)",
        c -> c.isEnabled() ? c.nodeAccount().debt() : 0));

    private final Declaration<FlowControl> declaration;

    CreditCounter(final Declaration<FlowControl> declaration)
    {
        this.declaration = declaration;
    }

    @Override
    public Declaration<FlowControl> declaration()
    {
        return declaration;
    }
}
