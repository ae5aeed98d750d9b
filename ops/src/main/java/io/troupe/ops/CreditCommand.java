package io.troupe.ops;

import io.troupe.node.counters.CounterType;
import picocli.CommandLine.Command;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code troupe credit}: the node's credit accounts, one by one, and the shadows of other nodes' accounts. */
@Command(name = "credit", description = "credit flow control: accounts open (each with its debt, threshold and " +
    "waits; the most indebted first), debt of the node's own account, shadows of other nodes' accounts, write-offs")
final class CreditCommand extends ReadCommand
{
    /** Accounts the table shows at most (--json gives every published one). */
    static final int TABLE_ROWS = 20;

    private static final CounterType[] SHOWN = {CounterType.CREDIT_ACCOUNTS_OPEN, CounterType.CREDIT_ACCOUNTS_OPENED,
        CounterType.CREDIT_NODE_ACCOUNT_DEBT, CounterType.CREDIT_CLEARED_NOTICES, CounterType.CREDIT_SHADOWS,
        CounterType.CREDIT_SHADOWS_REFUSED, CounterType.CREDIT_SHADOWS_FORGOTTEN, CounterType.CREDIT_UNKNOWN_ACCOUNTS,
        CounterType.CREDIT_WRITTEN_OFF, CounterType.CREDIT_SHADOW_DEBT_DROPPED, CounterType.FOREIGN_ACCOUNT_ARRIVALS,
        CounterType.CREDIT_ACCOUNTS_UNPUBLISHED};

    @Override
    int run(final NodeSnapshot node)
    {
        final List<Map<String, Object>> accounts = new ArrayList<>();
        for (final String id : node.labelValues(CounterType.CREDIT_ACCOUNT_DEBT, "account"))
        {
            final Map<String, Object> account = new LinkedHashMap<>();
            account.put("accountId", Long.parseLong(id));
            account.put("debt", node.get(CounterType.CREDIT_ACCOUNT_DEBT, "account", id));
            account.put("threshold", node.get(CounterType.CREDIT_ACCOUNT_THRESHOLD, "account", id));
            account.put("waits", node.get(CounterType.CREDIT_ACCOUNT_WAITS, "account", id));
            accounts.add(account);
        }
        accounts.sort(Comparator.comparingLong((Map<String, Object> a) -> (Long)a.get("debt")).reversed());
        return FigureList.print(this, node, SHOWN, "credit_", null, doc -> doc.put("accounts", accounts), () ->
        {
            final Table table = new Table("account", "debt", "threshold", "waits");
            for (final Map<String, Object> account : accounts.subList(0, Math.min(TABLE_ROWS, accounts.size())))
            {
                table.row(account.get("accountId"), account.get("debt"), account.get("threshold"),
                    account.get("waits"));
            }
            if (!table.isEmpty())
            {
                out().println();
                table.print(out());
            }
            if (accounts.size() > TABLE_ROWS)
            {
                out().println("... and " + (accounts.size() - TABLE_ROWS) + " more accounts (--json lists them)");
            }
        });
    }
}
