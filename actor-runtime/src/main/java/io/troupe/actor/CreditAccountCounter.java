package io.troupe.actor;

import io.troupe.memquota.CounterDescriptor;

import java.util.function.ToLongFunction;

/** The counters of one credit account (type ids 410..412, label {@code account}), read from the account. */
public enum CreditAccountCounter implements CounterDescriptor.Of<CreditAccount>
{
    /** An account's debt. */
    CREDIT_ACCOUNT_DEBT(410, "credit_account_debt", Kind.GAUGE, "account", "an account's debt", CreditAccount::debt),
    /** The debt at which the account is in debt. */
    CREDIT_ACCOUNT_THRESHOLD(411, "credit_account_threshold", Kind.GAUGE, "account",
        "the debt at which the account is in debt", CreditAccount::threshold),
    /** Times the account's ingress found it in debt and waited. */
    CREDIT_ACCOUNT_WAITS(412, "credit_account_waits", Kind.COUNT, "account",
        "times the account's ingress found it in debt and waited", CreditAccount::waits);

    private final Declaration declaration;
    private final ToLongFunction<CreditAccount> reader;

    CreditAccountCounter(final int typeId, final String metricName, final Kind kind, final String labels,
        final String doc, final ToLongFunction<CreditAccount> reader)
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
    public ToLongFunction<CreditAccount> reader()
    {
        return reader;
    }
}
