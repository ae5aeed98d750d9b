package io.troupe.ops;

import io.troupe.node.counters.CountersFileReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code troupe down ID}: an operator downs a member, recorded by the membership as a lapsed lease is. */
@Command(name = "down", description = "down a member (an operator's decision, e.g. for a host known dead): the " +
    "membership records it as DOWN at one epoch every member sees; its incarnation never comes back")
final class DownCommand implements Callable<Integer>
{
    @Mixin
    NodeTarget target;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ID", description = "the node id of the member to down")
    int member;

    @Override
    public Integer call()
    {
        final CountersFileReader file = ControlCommand.openForControl(target);
        final String answer = ControlCommand.request(target, file, "down " + member);
        if (target.json)
        {
            final Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("nodeId", (long)file.nodeId());
            doc.put("downed", (long)member);
            doc.put("answer", answer);
            spec.commandLine().getOut().println(Json.write(doc));
        }
        else
        {
            spec.commandLine().getOut().println("node " + file.nodeId() + ": " + answer);
        }
        return TroupeCli.OK;
    }
}
