package io.troupe.ops;

import io.troupe.node.counters.CountersFileReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code troupe members}: the member table as the node sees it (epoch, members with their incarnation, address and
 * status, whether this node is a voter and its role), asked over the node's control channel.
 */
@Command(name = "members", description = "the cluster's members as this node sees them: epoch, each member's " +
    "id, incarnation, address and status (JOINING, UP, LEAVING), whether this node is a voter and its role")
final class MembersCommand implements Callable<Integer>
{
    @Mixin
    NodeTarget target;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call()
    {
        final CountersFileReader file = ControlCommand.openForControl(target);
        final String answer = ControlCommand.request(target, file, "members");
        final Map<String, String> fields = new LinkedHashMap<>();
        for (final String field : answer.split(" "))
        {
            final int eq = field.indexOf('=');
            if (eq > 0)
            {
                fields.put(field.substring(0, eq), field.substring(eq + 1));
            }
        }
        final List<Map<String, Object>> members = new ArrayList<>();
        final String list = fields.getOrDefault("members", "");
        for (final String entry : list.isEmpty() ? new String[0] : list.split(","))
        {
            final String[] parts = entry.split(":");
            if (parts.length != 6)
            {
                throw new CliException(TroupeCli.NOT_OK, "node " + file.nodeId() + " answered a member this " +
                    "troupe does not read: '" + entry + "' (is the CLI of another version?)");
            }
            final Map<String, Object> member = new LinkedHashMap<>();
            member.put("nodeId", Long.parseLong(parts[0]));
            member.put("incarnation", Long.parseLong(parts[1]));
            member.put("host", parts[2]);
            member.put("port", Long.parseLong(parts[3]));
            member.put("status", parts[4]);
            member.put("sinceEpoch", Long.parseLong(parts[5]));
            members.add(member);
        }
        final PrintWriter out = spec.commandLine().getOut();
        if (target.json)
        {
            final Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("nodeId", (long)file.nodeId());
            doc.put("epoch", Long.parseLong(fields.getOrDefault("epoch", "-1")));
            doc.put("voter", Boolean.parseBoolean(fields.get("voter")));
            doc.put("role", fields.getOrDefault("role", "-"));
            doc.put("renewals", Long.parseLong(fields.getOrDefault("renewals", "0")));
            doc.put("members", members);
            out.println(Json.write(doc));
            return TroupeCli.OK;
        }
        out.println("node " + file.nodeId() + ": epoch " + fields.get("epoch") + ", " + members.size() +
            " members" + ("true".equals(fields.get("voter")) ? "; a voter, " + fields.get("role") : ""));
        final Table table = new Table("NODE", "INCARNATION", "ADDRESS", "STATUS", "SINCE EPOCH");
        for (final Map<String, Object> member : members)
        {
            table.row(member.get("nodeId"), member.get("incarnation"), member.get("host") + ":" + member.get("port"),
                member.get("status"), member.get("sinceEpoch"));
        }
        table.print(out);
        return TroupeCli.OK;
    }
}
