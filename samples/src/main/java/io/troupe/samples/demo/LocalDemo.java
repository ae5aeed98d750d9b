package io.troupe.samples.demo;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorRef;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.PoolConfig;
import io.troupe.actor.PoolCounters;
import io.troupe.actor.ServiceKey;
import io.troupe.actor.SystemCounters;
import io.troupe.actor.TypedBehavior;
import io.troupe.actor.TypedContext;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredException;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code ./troupe demo --local}: starts a single node in this process, registers a service, looks it up and asks it,
 * runs ping-pong pairs for a while, shows what a send to an unknown actor turns into, and prints the
 * node's counters and the throughput.
 */
public final class LocalDemo
{
    private static final String BALL = "ball";
    private static final ServiceKey<Echo> ECHO = ServiceKey.of(Echo.class, "echo");

    /**
     * What the echo service accepts.
     *
     * @param text    what to echo.
     * @param replyTo where the echo goes.
     */
    private record Echo(String text, ActorRef<String> replyTo)
    {
    }

    private LocalDemo()
    {
    }

    /**
     * Runs the demo.
     *
     * @param args {@code --seconds N} (ping-pong duration, default 3), {@code --pairs N} (default 4),
     *             {@code --threads N} (pool threads, default 2).
     * @param out  where the report goes.
     * @param err  where usage errors go.
     * @return the exit code.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        int seconds = 3;
        int pairs = 4;
        int threads = 2;
        try
        {
            for (int i = 0; i < args.length; i += 2)
            {
                if (i + 1 >= args.length)
                {
                    throw new IllegalArgumentException("option " + args[i] + " needs a value");
                }
                final int value = Integer.parseInt(args[i + 1]);
                switch (args[i])
                {
                    case "--seconds" -> seconds = requireRange("--seconds", value, 1, 3600);
                    case "--pairs" -> pairs = requireRange("--pairs", value, 1, 100_000);
                    case "--threads" -> threads = requireRange("--threads", value, 1, 256);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
        }
        catch (final IllegalArgumentException ex)
        {
            err.println("troupe demo --local: " + ex.getMessage());
            err.println("usage: troupe demo --local [--seconds N] [--pairs N] [--threads N]");
            return 2;
        }
        try
        {
            return new LocalDemo().run(out, seconds, pairs, threads);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    private static int requireRange(final String name, final int value, final int min, final int max)
    {
        if (value < min || value > max)
        {
            throw new IllegalArgumentException(name + " " + value + " out of range " + min + ".." + max);
        }
        return value;
    }

    private int run(final PrintStream out, final int seconds, final int pairs, final int threads)
        throws InterruptedException
    {
        final ActorSystemConfig config = new ActorSystemConfig()
            .nodeId(1)
            .pool(PoolConfig.named("default").threads(threads));
        final ActorSystem system = ActorSystem.start(config);
        out.printf("Troupe demo (single node): node %d started, pool 'default' with %d threads%n", system.nodeId(),
            threads);

        final ActorRef<Echo> echo = system.spawn(Echo.class,
            (ctx, request) -> ctx.send(request.replyTo(), "echo: " + request.text()));
        system.registerService(ECHO, echo);
        out.printf("service   %s registered -> actor %s%n", ECHO.local(), echo);
        out.printf("lookup    %s -> %s%n", ECHO.on(system.nodeId()), system.lookupService(ECHO));
        final long askStartNs = System.nanoTime();
        final Object reply = await(system, ECHO.local(), "hello");
        out.printf("ask       %s \"hello\" -> \"%s\" in %.2f ms%n",
            ECHO.local(), reply, (System.nanoTime() - askStartNs) / 1e6);
        final Object unknown = await(system, ActorRef.of(ActorId.of(0, 999_999, 77)), "anyone?");
        out.printf("ask       [0:999999:77] (no such actor) -> %s%n", unknown);

        for (int i = 0; i < pairs; i++)
        {
            final Player left = new Player();
            final Player right = new Player();
            final ActorRef<String> a = system.spawn(String.class, left);
            final ActorRef<String> b = system.spawn(String.class, right);
            left.partner = b;
            right.partner = a;
            system.send(b, BALL);
        }
        out.printf("ping-pong %d pairs for %d s ...%n", pairs, seconds);
        TimeUnit.MILLISECONDS.sleep(500); // warm-up
        final long startEvents = system.counters().eventsHandled();
        final long startNs = System.nanoTime();
        TimeUnit.SECONDS.sleep(seconds);
        final long events = system.counters().eventsHandled() - startEvents;
        final double elapsedS = (System.nanoTime() - startNs) / 1e9;
        out.printf(Locale.ROOT, "throughput %.1f M msgs/s (%d events in %.2f s)%n", events / elapsedS / 1e6, events,
            elapsedS);

        final long stopStartNs = System.nanoTime();
        final boolean clean = system.shutdown(Duration.ofMillis(200));
        out.printf("shutdown  %s in %.1f ms (ping-pong never drains: the deadline ends it)%n",
            clean ? "drained" : "stopped at the drain deadline", (System.nanoTime() - stopStartNs) / 1e6);
        print(out, system.counters());
        return 0;
    }

    private static Object await(final ActorSystem system, final ActorRef<Echo> target, final String text)
        throws InterruptedException
    {
        try
        {
            return system.ask(target, replyTo -> new Echo(text, replyTo), String.class, Duration.ofSeconds(5)).get();
        }
        catch (final ExecutionException ex)
        {
            final Throwable cause = ex.getCause();
            if (cause instanceof UndeliveredException)
            {
                final Undelivered notice = ((UndeliveredException)cause).undelivered();
                return "Undelivered(" + notice.reason() + ")";
            }
            if (cause instanceof TimeoutException)
            {
                return "timeout";
            }
            return cause.toString();
        }
    }

    private static void print(final PrintStream out, final SystemCounters counters)
    {
        out.println("counters");
        out.printf("  actors registered %d, alive %d, mailboxes created %d%n",
            counters.actorsRegistered(), counters.actorsAlive(), counters.mailboxesCreated());
        out.printf("  undelivered %d, dropped %d, dead letters %d, handler failures %d%n",
            counters.undelivered(), counters.dropped(), counters.deadLetters(), counters.handlerFailures());
        out.printf("  timers scheduled %d, fired %d, stale %d, discarded %d%n",
            counters.timersScheduled(), counters.timersFired(), counters.timersStale(), counters.timersDiscarded());
        for (final PoolCounters pool : counters.pools())
        {
            out.printf("  pool %-8s threads %d, activations %d, events %d, busy %.2f s, idle %.2f s%n",
                pool.name(), pool.threads(), pool.activations(), pool.eventsHandled(),
                pool.busyNs() / 1e9, pool.idleNs() / 1e9);
        }
    }

    /** Returns the ball to its partner. */
    private static final class Player implements TypedBehavior<String>
    {
        private ActorRef<String> partner;

        @Override
        public void receive(final TypedContext<String> ctx, final String ball)
        {
            ctx.send(partner, ball);
        }
    }
}
