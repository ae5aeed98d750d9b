package io.troupe.ops;

import io.troupe.actor.ServiceId;
import io.troupe.registry.ReplicaReader;
import io.troupe.registry.ServiceInstance;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/**
 * {@code troupe services [NAME]}: the cluster's services as the node's directory replica has them (its Chronicle Map
 * file in the data directory), so it answers with no node thread involved.
 */
@Command(name = "services", description = "the services in the node's directory replica: each name with its " +
    "instances (node, actor, incarnation); NAME for one")
final class ServicesCommand implements Callable<Integer>
{
    @picocli.CommandLine.Mixin
    NodeTarget target;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "0..1", paramLabel = "NAME", description = "a service name (1 to 12 printable characters)")
    String name;

    @Override
    public Integer call()
    {
        final Path dataDir = target.dataDir();
        if (name != null)
        {
            try
            {
                ServiceId.of(0, name);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new CliException(TroupeCli.USAGE, ex.getMessage());
            }
        }
        final ReplicaReader reader;
        try
        {
            reader = ReplicaReader.open(dataDir);
        }
        catch (final RuntimeException ex)
        {
            throw new CliException(TroupeCli.UNREACHABLE, ex.getMessage() + " (troupe.registry.replica = false " +
                "keeps none)");
        }
        try (reader)
        {
            final SortedMap<String, List<ServiceInstance>> all;
            if (name == null)
            {
                all = reader.all();
            }
            else
            {
                all = new TreeMap<>();
                all.put(name, reader.lookup(ServiceId.of(0, name)));
            }
            print(all, reader.writer());
            // a script asking for one name learns from the code whether it has a live instance
            return name != null && all.get(name).isEmpty() ? TroupeCli.NOT_OK : TroupeCli.OK;
        }
    }

    private void print(final SortedMap<String, List<ServiceInstance>> all, final long[] writer)
    {
        final PrintWriter out = spec.commandLine().getOut();
        if (target.json)
        {
            final List<Object> services = new ArrayList<>();
            for (final Map.Entry<String, List<ServiceInstance>> entry : all.entrySet())
            {
                final List<Object> instances = new ArrayList<>();
                for (final ServiceInstance instance : entry.getValue())
                {
                    final Map<String, Object> doc = new LinkedHashMap<>();
                    doc.put("nodeId", instance.nodeId());
                    doc.put("actor", instance.actor().toString());
                    doc.put("incarnation", instance.incarnation());
                    instances.add(doc);
                }
                services.add(Map.of("name", entry.getKey(), "instances", instances));
            }
            final Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("nodeId", writer[0]);
            doc.put("incarnation", writer[1]);
            doc.put("services", services);
            out.println(Json.write(doc));
            return;
        }
        final Table table = new Table("service", "node", "actor", "incarnation");
        for (final Map.Entry<String, List<ServiceInstance>> entry : all.entrySet())
        {
            if (entry.getValue().isEmpty())
            {
                table.row(entry.getKey(), "-", "no live instance", "");
            }
            for (final ServiceInstance instance : entry.getValue())
            {
                table.row(entry.getKey(), instance.nodeId(), instance.actor(), instance.incarnation());
            }
        }
        out.printf("node %d's directory (incarnation %d): %d service%s%n", writer[0], writer[1], all.size(),
            all.size() == 1 ? "" : "s");
        if (!table.isEmpty())
        {
            table.print(out);
        }
        out.flush();
    }
}
