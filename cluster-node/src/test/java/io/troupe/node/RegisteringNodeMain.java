package io.troupe.node;

import io.troupe.actor.ActorId;
import io.troupe.actor.ServiceId;

import java.nio.file.Path;
import java.util.Properties;

/**
 * A node process for {@link RegistryKillLoopTest}: starts a node from its config file, prints
 * {@code up incarnation=<n> replicaSetAside=<bool>}, then registers {@code reg-0, reg-1, ...} one after the other
 * until it is killed. Arguments: the config file.
 */
final class RegisteringNodeMain
{
    private RegisteringNodeMain()
    {
    }

    public static void main(final String[] args)
    {
        final Node node = Node.start(NodeConfigLoader.load(Path.of(args[0]), new Properties()));
        node.registry().replicaOpened().join(); // opened in the background: whether it set a file aside is known then
        System.out.println("up incarnation=" + node.identity().incarnation() + " replicaSetAside=" +
            node.registry().replicaSetAside());
        System.out.flush();
        final ActorId actor = node.system().register((ctx, envelope) -> { });
        for (int i = 0; ; i++)
        {
            node.registry().register(ServiceId.of(0, "reg-" + (i % 50_000)), actor);
            if (i % 1_000 == 999)
            {
                Thread.onSpinWait();
            }
        }
    }
}
