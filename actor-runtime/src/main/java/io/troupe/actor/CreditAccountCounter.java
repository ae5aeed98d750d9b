package io.troupe.actor;

import io.troupe.memquota.CounterDescriptor;

import static io.troupe.memquota.CounterDescriptor.count;
import static io.troupe.memquota.CounterDescriptor.gauge;

/** The counters of one credit account (type ids 410..412, label {@code account}), read from the account. */
public enum CreditAccountCounter implements CounterDescriptor.Of<CreditAccount>
{
    /** An account's debt. */
    CREDIT_ACCOUNT_DEBT(gauge(410, "credit_account_debt", "account", "an account's debt", CreditAccount::debt)),
    /** The debt at which the account is in debt. */
    CREDIT_ACCOUNT_THRESHOLD(gauge(411, "credit_account_threshold", "account",
        "the debt at which the account is in debt", CreditAccount::threshold)),
    /** Times the account's ingress found it in debt and waited. */
    CREDIT_ACCOUNT_WAITS(count(412, "credit_account_waits", "account",
        "times the account's ingress found it in debt and waited", CreditAccount::waits));

    private final Declaration<CreditAccount> declaration;

    CreditAccountCounter(final Declaration<CreditAccount> declaration)
    {
        this.declaration = declaration;
    }

    @Override
    public Declaration<CreditAccount> declaration()
    {
        return declaration;
    }
}
