package io.troupe.samples;

import io.troupe.actor.ActorRef;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.PoolConfig;
import io.troupe.actor.ServiceKey;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A first actor: one actor system in this process, a typed echo actor registered as a local service, and a typed
 * ask from outside any actor. The README's first example, compiled and run by the tests.
 */
public final class FirstActor
{
    /**
     * What the echo service accepts.
     *
     * @param text    what to echo.
     * @param replyTo where the echo goes.
     */
    public record Echo(String text, ActorRef<String> replyTo)
    {
    }

    /** The echo service, on the node that uses the key. */
    public static final ServiceKey<Echo> ECHO = ServiceKey.of(Echo.class, "echo");

    private FirstActor()
    {
    }

    /**
     * Starts a system, asks the echo service once, prints the reply and stops.
     *
     * @param args unused.
     * @throws Exception if the ask fails.
     */
    public static void main(final String[] args) throws Exception
    {
        System.out.println(run("hello"));
    }

    /**
     * Starts a system with an echo service, asks it, and closes the system.
     *
     * @param text what to send.
     * @return the reply.
     * @throws ExecutionException   if the ask failed (not delivered, say).
     * @throws TimeoutException     if no reply came within a second.
     * @throws InterruptedException if interrupted while waiting.
     */
    public static String run(final String text) throws ExecutionException, TimeoutException, InterruptedException
    {
        try (ActorSystem system = ActorSystem.start(new ActorSystemConfig()
            .nodeId(1)
            .pool(PoolConfig.named("default").threads(2))))
        {
            final ActorRef<Echo> echo = system.spawn(Echo.class,
                (ctx, request) -> ctx.send(request.replyTo(), "echo: " + request.text()));
            system.registerService(ECHO, echo);
            return system.ask(ECHO.local(), replyTo -> new Echo(text, replyTo), String.class, Duration.ofSeconds(1))
                .get(5, TimeUnit.SECONDS);
        }
    }
}
