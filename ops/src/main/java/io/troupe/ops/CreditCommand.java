package io.troupe.ops;

import io.troupe.node.counters.CounterType;
import picocli.CommandLine.Command;

/** {@code troupe credit}: the node's credit accounts and the shadows of other nodes' accounts. */
@Command(name = "credit", description = "credit flow control: accounts open, debt of the node's own account, " +
    "shadows of other nodes' accounts, write-offs")
final class CreditCommand extends ReadCommand
{
    private static final CounterType[] SHOWN = {CounterType.CREDIT_ACCOUNTS_OPEN, CounterType.CREDIT_ACCOUNTS_OPENED,
        CounterType.CREDIT_NODE_ACCOUNT_DEBT, CounterType.CREDIT_CLEARED_NOTICES, CounterType.CREDIT_SHADOWS,
        CounterType.CREDIT_SHADOWS_REFUSED, CounterType.CREDIT_SHADOWS_FORGOTTEN, CounterType.CREDIT_UNKNOWN_ACCOUNTS,
        CounterType.CREDIT_WRITTEN_OFF, CounterType.CREDIT_SHADOW_DEBT_DROPPED, CounterType.FOREIGN_ACCOUNT_ARRIVALS};

    @Override
    int run(final NodeSnapshot node)
    {
        return FigureList.print(this, node, SHOWN, "credit_", null);
    }
}
