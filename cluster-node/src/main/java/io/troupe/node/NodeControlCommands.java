package io.troupe.node;

import io.troupe.broker.BrokerSpec;
import io.troupe.broker.BrokerSpecText;
import io.troupe.broker.QueueSpec;
import io.troupe.membership.Membership;
import io.troupe.membership.table.Member;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What a node does on a request of its local control channel ({@code troupe drain}, {@code stop}, {@code broker
 * set}): each command answers at once with one line, {@code ok ...} or {@code error ...}; a shutdown runs on a thread
 * of its own. Runs on the control server's thread.
 */
final class NodeControlCommands
{
    private static final Logger LOG = LoggerFactory.getLogger(Node.class);

    private final Node node;

    NodeControlCommands(final Node node)
    {
        this.node = node;
    }

    /** The most a control request may ask the pools to drain for. */
    static final Duration MAX_CONTROL_DRAIN = Duration.ofMinutes(10);

    /** Runs a control command (on the control thread): answers at once; a shutdown runs on a thread of its own. */
    String onControl(final String command)
    {
        final String[] words = command.split(" +");
        switch (words[0])
        {
            case "ping":
                return words.length == 1 ?
                    "ok node " + node.nodeId() + " incarnation " + node.interconnect().incarnation() +
                    (node.closeStartedNow() ? " shutting down" : " running") : "error ping takes nothing";
            case "drain":
                if (words.length > 2)
                {
                    return "error drain takes at most one argument: the drain deadline in ms";
                }
                Duration deadline = node.config().shutdownTimeout();
                if (words.length == 2)
                {
                    try
                    {
                        deadline = Duration.ofMillis(Long.parseLong(words[1]));
                    }
                    catch (final NumberFormatException ex)
                    {
                        return "error the drain deadline is a number of ms, not '" + words[1] + "'";
                    }
                    if (deadline.isNegative() || deadline.compareTo(MAX_CONTROL_DRAIN) > 0)
                    {
                        return "error the drain deadline is 0.." + MAX_CONTROL_DRAIN.toMillis() + " ms";
                    }
                }
                return closeInBackground(deadline, "draining for up to " + NodeConfig.duration(deadline) +
                    ", then stopping");
            case "stop":
                return words.length == 1 ? closeInBackground(Duration.ZERO,
                    "stopping without draining: what is queued ends as Undelivered(SHUTDOWN)") :
                    "error stop takes nothing";
            case "broker-set":
                return setBroker(words);
            case "members":
                return words.length == 1 ? members() : "error members takes nothing";
            case "leave":
                if (words.length != 1)
                {
                    return "error leave takes nothing";
                }
                return node.membership() == null ? "error node " + node.nodeId() + " has no membership (it has a " +
                    "static peer list): use drain" : closeInBackground(node.config().shutdownTimeout(),
                    "leaving: recorded as LEAVING, draining for up to " +
                    NodeConfig.duration(node.config().shutdownTimeout()) + ", then LEFT and stopping");
            case "down":
                return down(words);
            default:
                return "error unknown command '" + words[0] + "' (ping, drain [ms], stop, broker-set NAME " +
                    "[ask=POLICY] [askR=POLICY], members, leave, down ID)";
        }
    }

    /**
     * {@code members}: the member table as this node sees it, on one line: {@code ok epoch=E voter=V role=R
     * members=ID:INCARNATION:HOST:PORT:STATUS:SINCE,...}.
     */
    private String members()
    {
        final Membership membership = node.membership();
        if (membership == null)
        {
            return "error node " + node.nodeId() + " has no membership (it has a static peer list)";
        }
        final StringBuilder line = new StringBuilder("ok epoch=").append(membership.epoch())
            .append(" voter=").append(membership.isVoter())
            .append(" role=").append(membership.isVoter() ? membership.role() : "-")
            .append(" renewals=").append(membership.renewals())
            .append(" members=");
        String separator = "";
        for (final Member member : membership.members())
        {
            line.append(separator).append(member.nodeId()).append(':').append(member.incarnation()).append(':')
                .append(member.host()).append(':').append(member.port()).append(':').append(member.status())
                .append(':').append(member.sinceEpoch());
            separator = ",";
        }
        return line.toString();
    }

    /** {@code down ID}: an operator downs a member; answers once the membership recorded it (at most 5 s). */
    private String down(final String[] words)
    {
        final Membership membership = node.membership();
        if (membership == null)
        {
            return "error node " + node.nodeId() + " has no membership (it has a static peer list)";
        }
        if (words.length != 2)
        {
            return "error down takes the node id of the member to down";
        }
        final int member;
        try
        {
            member = Integer.parseInt(words[1]);
        }
        catch (final NumberFormatException ex)
        {
            return "error down takes a node id, not '" + words[1] + "'";
        }
        try
        {
            membership.down(member, 0).get(5, TimeUnit.SECONDS);
            LOG.warn("node {}: member {} downed by an operator", node.nodeId(), member);
            return "ok node " + member + " downed";
        }
        catch (final ExecutionException ex)
        {
            return "error " + ex.getCause().getMessage();
        }
        catch (final TimeoutException ex)
        {
            return "error the membership did not answer within 5 s";
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return "error interrupted";
        }
    }

    /** {@code broker-set NAME [ask=POLICY] [askR=POLICY]}: new queue policies for a named broker, applied live. */
    private String setBroker(final String[] words)
    {
        if (words.length < 3 || words.length > 4)
        {
            return "error broker-set takes a broker's name and ask=POLICY, askR=POLICY or both";
        }
        QueueSpec ask = null;
        QueueSpec askR = null;
        try
        {
            for (int i = 2; i < words.length; i++)
            {
                final int eq = words[i].indexOf('=');
                final String side = eq < 0 ? words[i] : words[i].substring(0, eq);
                if (eq < 0 || !("ask".equals(side) || "askR".equals(side)))
                {
                    return "error broker-set: '" + words[i] + "' is not ask=POLICY or askR=POLICY";
                }
                final QueueSpec policy = BrokerSpecText.parseQueue(words[i].substring(eq + 1));
                if ("ask".equals(side))
                {
                    ask = policy;
                }
                else
                {
                    askR = policy;
                }
            }
            final BrokerSpec sent = node.brokers().reconfigureQueues(words[1], ask, askR);
            LOG.info("node {}: control request: broker {} set to {}", node.nodeId(), words[1],
                BrokerSpecText.format(sent));
            return "ok broker " + words[1] + " on node " + node.nodeId() + " takes " +
                BrokerSpecText.format(sent);
        }
        catch (final IllegalArgumentException ex)
        {
            return "error " + ex.getMessage();
        }
    }

    private String closeInBackground(final Duration drainTimeout, final String what)
    {
        if (node.closeStartedNow())
        {
            return "error node " + node.nodeId() + " is already shutting down";
        }
        LOG.info("node {}: control request: {}", node.nodeId(), what);
        node.closeInBackground(drainTimeout);
        return "ok node " + node.nodeId() + " is " + what;
    }
}
