package io.troupe.node.counters;

import io.troupe.actor.FlowControl;
import io.troupe.broker.BrokerDirectory;
import io.troupe.broker.BrokerGauges;
import io.troupe.broker.BrokerSpecText;
import io.troupe.broker.Side;
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
            final CounterRows<Long>.Row row = accounts.row(id, "account=" + id);
            row.set(CounterType.CREDIT_ACCOUNT_DEBT, account.debt());
            row.set(CounterType.CREDIT_ACCOUNT_THRESHOLD, account.threshold());
            row.set(CounterType.CREDIT_ACCOUNT_WAITS, account.waits());
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
            final CounterRows<Integer>.Row row = sessions.row(session.sessionId(),
                "client=" + session.clientId() + ",session=" + session.sessionId());
            row.set(CounterType.CLIENT_SESSION_EVENTS_IN, session.eventsIn());
            row.set(CounterType.CLIENT_SESSION_ASKS_IN, session.asksIn());
            row.set(CounterType.CLIENT_SESSION_MESSAGES_OUT, session.messagesOut());
            row.set(CounterType.CLIENT_SESSION_ASKS_PENDING, session.asksPending());
            row.set(CounterType.CLIENT_SESSION_DEBT, session.debt());
        }
        sessions.end();
    }

    /** One row per named broker; its configuration in the label of its reconfigurations counter. */
    void publishBrokers(final BrokerDirectory directory, final long nowNs)
    {
        brokers.begin();
        for (final BrokerDirectory.Entry broker : directory.list())
        {
            final BrokerGauges gauges = broker.gauges();
            final CounterRows<String>.Row row = brokers.row(broker.name(), "broker=" + broker.name());
            row.set(CounterType.BROKER_ASK_QUEUE, gauges.length(Side.ASK));
            row.set(CounterType.BROKER_ASKR_QUEUE, gauges.length(Side.ASK_R));
            row.set(CounterType.BROKER_ASK_SOJOURN_NS, gauges.headSojournNs(Side.ASK, nowNs));
            row.set(CounterType.BROKER_ASKR_SOJOURN_NS, gauges.headSojournNs(Side.ASK_R, nowNs));
            row.set(CounterType.BROKER_ASK_MATCHES, gauges.matches(Side.ASK));
            row.set(CounterType.BROKER_ASKR_MATCHES, gauges.matches(Side.ASK_R));
            row.set(CounterType.BROKER_ASK_DROPS, gauges.drops(Side.ASK));
            row.set(CounterType.BROKER_ASKR_DROPS, gauges.drops(Side.ASK_R));
            row.set(CounterType.BROKER_ASK_LAST_SOJOURN_NS, gauges.lastSojournNs(Side.ASK));
            row.set(CounterType.BROKER_ASKR_LAST_SOJOURN_NS, gauges.lastSojournNs(Side.ASK_R));
            row.set(CounterType.BROKER_CANCELS, gauges.cancels());
            row.set(CounterType.BROKER_PURGED, gauges.purged());
            row.set(CounterType.BROKER_ALARMS_RAISED, gauges.alarmsRaised());
            // the count first, then the spec it goes with: a reader that sees the new count sees at least that spec
            final long reconfigurations = gauges.reconfigurations();
            final AtomicCounter config = row.set(CounterType.BROKER_RECONFIGURATIONS, reconfigurations);
            final Long described = describedAt.get(broker.name());
            if (config != null && (described == null || described != reconfigurations))
            {
                file.describe(config, CounterType.BROKER_RECONFIGURATIONS.metricName(), row.labels(),
                    BrokerSpecText.format(gauges.spec()));
                describedAt.put(broker.name(), reconfigurations);
            }
        }
        brokers.end();
    }
}
