package io.troupe.ops;

import io.troupe.memquota.CounterDescriptor;
import io.troupe.node.counters.NodeCounter;
import io.troupe.interconnect.InterconnectCounter;
import io.troupe.actor.CreditCounter;
import io.troupe.actor.CreditAccountCounter;
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

    private static final CounterDescriptor[] SHOWN = {
        CreditCounter.CREDIT_ACCOUNTS_OPEN, CreditCounter.CREDIT_ACCOUNTS_OPENED,
        CreditCounter.CREDIT_NODE_ACCOUNT_DEBT, CreditCounter.CREDIT_CLEARED_NOTICES, CreditCounter.CREDIT_SHADOWS,
        CreditCounter.CREDIT_SHADOWS_REFUSED, CreditCounter.CREDIT_SHADOWS_FORGOTTEN,
        CreditCounter.CREDIT_UNKNOWN_ACCOUNTS, CreditCounter.CREDIT_WRITTEN_OFF,
        CreditCounter.CREDIT_SHADOW_DEBT_DROPPED, InterconnectCounter.FOREIGN_ACCOUNT_ARRIVALS,
        NodeCounter.CREDIT_ACCOUNTS_UNPUBLISHED};

    @Override
    int run(final NodeSnapshot node)
    {
        final List<Map<String, Object>> accounts = new ArrayList<>();
        for (final String id : node.labelValues(CreditAccountCounter.CREDIT_ACCOUNT_DEBT, "account"))
        {
            final Map<String, Object> account = new LinkedHashMap<>();
            account.put("accountId", Long.parseLong(id));
            account.put("debt", node.get(CreditAccountCounter.CREDIT_ACCOUNT_DEBT, "account", id));
            account.put("threshold", node.get(CreditAccountCounter.CREDIT_ACCOUNT_THRESHOLD, "account", id));
            account.put("waits", node.get(CreditAccountCounter.CREDIT_ACCOUNT_WAITS, "account", id));
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
