package io.troupe.client;

import io.troupe.actor.ServiceId;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A client in a child JVM: {@code ClientChildMain <cluster id> <endpoint> <asks>} connects, asks the slow service
 * that many times (answers never come), prints READY and waits to be killed.
 */
public final class ClientChildMain
{
    private ClientChildMain()
    {
    }

    /**
     * Runs the client.
     *
     * @param args cluster id, endpoint, asks.
     * @throws InterruptedException when interrupted.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        final TroupeClient client = TroupeClient.connect(new ClientConfig().clusterId(args[0]).endpoint(args[1])
            .secret(TestEvents.SECRET.getBytes(StandardCharsets.UTF_8)).codec(TestEvents.GREETING)
            .codec(TestEvents.REPLY));
        final int asks = Integer.parseInt(args[2]);
        for (int i = 0; i < asks; i++)
        {
            client.ask(ServiceId.of(0, "slow"), new TestEvents.Greeting("#" + i), Duration.ofMinutes(5));
        }
        System.out.println("READY client " + client.clientId());
        Thread.sleep(Long.MAX_VALUE);
    }
}
