package io.troupe.node.counters;

import io.troupe.actor.CreditAccountCounter;
import io.troupe.actor.FlowControl;
import io.troupe.broker.BrokerCounter;
import io.troupe.broker.BrokerDirectory;
import io.troupe.broker.BrokerGauges;
import io.troupe.broker.BrokerSpec;
import io.troupe.broker.BrokerSpecText;
import io.troupe.node.client.ClientSessionCounter;
import io.troupe.node.client.ClientSessionStats;
import org.agrona.concurrent.status.AtomicCounter;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The part of {@link CountersPublisher} for things that come and go: a row of counters per credit account (the first
 * {@link #MAX_ACCOUNT_ROWS} seen), per open client session and per named broker, each allocated when it appears and
 * freed when it goes ({@link CounterRows}). A broker's configuration rides in the label of its
 * {@code broker_reconfigurations} counter. Publisher thread only.
 */
final class KeyedCountersPublisher
{
    /** Accounts published one by one at most; the rest are counted in {@code credit_accounts_unpublished}. */
    static final int MAX_ACCOUNT_ROWS = 256;
    private static final List<CreditAccountCounter> ACCOUNT = List.of(CreditAccountCounter.values());
    private static final List<ClientSessionCounter> SESSION = List.of(ClientSessionCounter.values());
    private static final List<BrokerCounter> BROKER = List.of(BrokerCounter.values());

    private final CountersFile file;
    private final CounterRows<Long> accounts;
    private final CounterRows<Integer> sessions;
    private final CounterRows<String> brokers;
    /** The reconfiguration count each broker's label was last written for. */
    private final Map<String, Long> describedAt = new HashMap<>();

    KeyedCountersPublisher(final CountersFile file, final CounterRows.Allocator allocator)
    {
        this.file = file;
        this.accounts = new CounterRows<>(allocator);
        this.sessions = new CounterRows<>(allocator);
        this.brokers = new CounterRows<>(allocator);
    }

    /**
     * One row per open credit account, up to {@link #MAX_ACCOUNT_ROWS}.
     *
     * @return how many open accounts were left out.
     */
    long publishAccounts(final FlowControl flow)
    {
        final long[] unpublished = {0};
        accounts.begin();
        flow.forEachOpenAccount(account ->
        {
            final Long id = account.accountId();
            if (accounts.size() >= MAX_ACCOUNT_ROWS && !accounts.contains(id))
            {
                unpublished[0]++;
                return;
            }
            accounts.row(id, "account=" + id).setAll(ACCOUNT, account);
        });
        accounts.end();
        return unpublished[0];
    }

    /** One row per open client session. */
    void publishSessions(final List<ClientSessionStats> open)
    {
        sessions.begin();
        for (final ClientSessionStats session : open)
        {
            sessions.row(session.sessionId(), "client=" + session.clientId() + ",session=" + session.sessionId())
                .setAll(SESSION, session);
        }
        sessions.end();
    }

    /** One row per named broker; its configuration in the label of its reconfigurations counter. */
    void publishBrokers(final BrokerDirectory directory)
    {
        brokers.begin();
        for (final BrokerDirectory.Entry broker : directory.list())
        {
            final BrokerGauges gauges = broker.gauges();
            final CounterRows<String>.Row row = brokers.row(broker.name(), "broker=" + broker.name());
            row.setAll(BROKER, gauges);
            // the broker sets its spec, then counts it: the count read first, the spec read after is that count's
            // or a later one. Written the other way round, the label before the count, so that a reader (troupe
            // broker set waits for the count to grow) that sees a count sees at least the spec it goes with.
            final long reconfigurations = gauges.reconfigurations();
            final BrokerSpec spec = gauges.spec();
            AtomicCounter config = row.counter(BrokerCounter.BROKER_RECONFIGURATIONS);
            if (config == null)
            {
                config = row.set(BrokerCounter.BROKER_RECONFIGURATIONS, 0);
            }
            final Long described = describedAt.get(broker.name());
            if (config != null && (described == null || described != reconfigurations))
            {
                file.describe(config, BrokerCounter.BROKER_RECONFIGURATIONS.metricName(), row.labels(),
                    BrokerSpecText.format(spec));
                describedAt.put(broker.name(), reconfigurations);
            }
            if (config != null)
            {
                config.setRelease(reconfigurations);
            }
        }
        brokers.end();
    }
}
