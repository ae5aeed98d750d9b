package io.troupe.registry;

import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.actor.ActorId;
import io.troupe.actor.ActorRef;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.Envelope;
import io.troupe.actor.PoolConfig;
import io.troupe.actor.ServiceId;
import io.troupe.actor.ServiceKey;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** One node's directory, without peers: registration, lookups, subscriptions, pass-aways, capacity. */
@Timeout(60)
class ServiceRegistryTest
{
    /** How long to wait for what should happen (a notice, a count): never reached on a slow machine. */
    private static final Duration WAIT = Await.DEFAULT_TIMEOUT;
    /** How long no further notice may bounce off a forgotten subscriber. */
    private static final Duration NO_MORE_NOTICES = Duration.ofMillis(100);
    private static final ServiceId ECHO = ServiceId.of(0, "echo");

    private final ActorSystem system = ActorSystem.start(new ActorSystemConfig().nodeId(4).threadNamePrefix("reg-")
        .pool(PoolConfig.named("default").threads(1)));
    private ServiceRegistry registry = ServiceRegistry.start(system, null, new RegistryConfig());

    @AfterEach
    void tearDown()
    {
        registry.close();
        system.close();
    }

    private ActorId mortal(final BlockingQueue<Object> log)
    {
        return system.register((ctx, envelope) ->
        {
            if ("die".equals(envelope.event()))
            {
                ctx.passAway();
            }
            else
            {
                log.add(envelope.event());
            }
        });
    }

    @Test
    void anInstanceIsFoundWithItsNodeAndTheNameOnThisNodeReachesIt() throws Exception
    {
        final BlockingQueue<Object> log = new LinkedBlockingQueue<>();
        final ActorId echo = mortal(log);

        final ServiceInstance instance = registry.register(ECHO, echo);

        assertThat(instance.service()).isEqualTo(ServiceId.of(4, "echo"));
        assertThat(instance.nodeId()).isEqualTo(4);
        assertThat(registry.lookup(ECHO)).containsExactly(instance);
        assertThat(registry.lookup(ServiceId.of(4, "echo"))).containsExactly(instance);
        assertThat(registry.lookup(ServiceId.of(5, "echo"))).as("only node 5's").isEmpty();
        assertThat(registry.register(ECHO, echo)).as("again: no change").isEqualTo(instance);
        assertThat(registry.size()).isEqualTo(1);
        system.send(ServiceId.of(4, "echo"), "via the name");
        assertThat(Await.next(log, WAIT)).isEqualTo("via the name");
    }

    @Test
    void theDirectoryActorAnswersLookupsAndTakesSubscriptionsAsEvents() throws Exception
    {
        final ActorId echo = mortal(new LinkedBlockingQueue<>());
        final ServiceInstance instance = registry.register(ECHO, echo);
        final BlockingQueue<Envelope> heard = new LinkedBlockingQueue<>();
        final ActorId client = system.register((ctx, envelope) ->
        {
            if (envelope.event() instanceof Object[] request)
            {
                ctx.send(registry.actor(), request[0], 0, 0, (Long)request[1]);
            }
            else
            {
                heard.add(envelope);
            }
        });

        system.send(client, new Object[] {new Lookup(ECHO), 42L});
        final Envelope answer = Await.next(heard, WAIT);
        assertThat(answer.event()).isEqualTo(new LookupResult(ECHO, List.of(instance)));
        assertThat(answer.type()).isEqualTo(LookupResult.TYPE);
        assertThat(answer.cookie()).isEqualTo(42L);

        system.send(client, new Object[] {new Subscribe(ECHO), 0L});
        assertThat(Await.next(heard, WAIT).event()).isEqualTo(new ServiceUp(instance));
        system.send(client, new Object[] {new Unsubscribe(ECHO), 0L});
        system.send(client, new Object[] {new Lookup(ServiceId.of(0, "nobody")), 43L});
        final Envelope none = Await.next(heard, WAIT);
        assertThat(none.event()).isEqualTo(new LookupResult(ServiceId.of(0, "nobody"), List.of()));
        registry.unregister(ECHO, echo);
        assertThat(heard.poll(300, TimeUnit.MILLISECONDS)).as("unsubscribed: no ServiceDown").isNull();
    }

    @Test
    void anotherNodesNameOrActorIsRefusedSayingWhy()
    {
        final ActorId echo = mortal(new LinkedBlockingQueue<>());
        assertThatThrownBy(() -> registry.register(ServiceId.of(7, "echo"), echo))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("names node 7");
        assertThatThrownBy(() -> registry.register(ECHO, ActorId.of(7, 1, 1)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("an actor of this node");
        assertThat(registry.lookup(ECHO)).isEmpty();
    }

    @Test
    void subscribersHearEveryInstanceComeAndGoIncludingOnesThatPassAway() throws Exception
    {
        final BlockingQueue<Object> heard = new LinkedBlockingQueue<>();
        // what the name on this node pointed at when the subscriber heard each notice: the name is mapped before a
        // ServiceUp is told, and unmapped (or moved) before a ServiceDown is
        final BlockingQueue<String> mappedWhenHeard = new LinkedBlockingQueue<>();
        final ActorId subscriber = system.register((ctx, envelope) ->
        {
            mappedWhenHeard.add(String.valueOf(system.lookupService(ECHO)));
            heard.add(envelope.event());
        });
        final ActorId first = mortal(new LinkedBlockingQueue<>());
        final ServiceInstance before = registry.register(ECHO, first);

        registry.subscribe(ECHO, subscriber);
        assertThat(Await.next(heard, WAIT)).as("what is live now").isEqualTo(new ServiceUp(before));

        final ActorId second = mortal(new LinkedBlockingQueue<>());
        final ServiceInstance added = registry.register(ECHO, second);
        assertThat(Await.next(heard, WAIT)).isEqualTo(new ServiceUp(added));
        assertThat(registry.unregister(ECHO, first)).isTrue();
        assertThat(Await.next(heard, WAIT)).isEqualTo(new ServiceDown(before));
        assertThat(system.lookupService(ECHO)).as("the name on this node moves to the other instance")
            .isEqualTo(second);

        system.send(second, "die");
        assertThat(Await.next(heard, WAIT)).isEqualTo(new ServiceDown(added));
        assertThat(registry.lookup(ECHO)).isEmpty();
        assertThat(system.lookupService(ECHO)).as("unmapped before the notice was told").isNull();
        assertThat(registry.unregister(ECHO, second)).isFalse();
        assertThat(List.copyOf(mappedWhenHeard)).as("the name when each notice was heard").containsExactly(
            String.valueOf(first), String.valueOf(first), String.valueOf(second), "null");
    }

    @Test
    void aSubscriberThatIsGoneIsForgottenAtTheNextNotice() throws Exception
    {
        final BlockingQueue<Object> heard = new LinkedBlockingQueue<>();
        final ActorId gone = mortal(new LinkedBlockingQueue<>());
        final ActorId alive = system.register((ctx, envelope) -> heard.add(envelope.event()));
        registry.subscribe(ECHO, gone);
        registry.subscribe(ECHO, alive);
        final long actorsAlive = system.counters().actorsAlive();
        system.send(gone, "die");
        Await.equal(() -> system.counters().actorsAlive(), actorsAlive - 1, "the gone subscriber passed away");

        registry.register(ECHO, mortal(new LinkedBlockingQueue<>()));
        assertThat(Await.next(heard, WAIT)).isInstanceOf(ServiceUp.class);
        Await.until(() -> system.counters().undelivered() == 1, WAIT,
            "the notice to the gone subscriber came back to the directory");

        registry.register(ECHO, mortal(new LinkedBlockingQueue<>()));
        assertThat(Await.next(heard, WAIT)).isInstanceOf(ServiceUp.class);
        // a notice to it would be sent with the one just heard, and come back a moment later
        Await.holdsFor(NO_MORE_NOTICES, () -> system.counters().undelivered() == 1,
            "no notice to it any more: forgotten");
        assertThat(system.counters().deadLetters()).isZero();
    }

    @Test
    void registeringBeyondTheCapacityFailsClearlyAndChangesNothing()
    {
        registry.close();
        registry = ServiceRegistry.start(system, null, new RegistryConfig().capacity(2));
        registry.register(ServiceId.of(0, "a"), mortal(new LinkedBlockingQueue<>()));
        registry.register(ServiceId.of(0, "b"), mortal(new LinkedBlockingQueue<>()));

        assertThatThrownBy(() -> registry.register(ServiceId.of(0, "c"), mortal(new LinkedBlockingQueue<>())))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("capacity");
        assertThat(registry.lookup(ServiceId.of(0, "c"))).isEmpty();
        assertThat(registry.size()).isEqualTo(2);
    }

    @Test
    void typedKeysGiveTypedReferencesAndPicksChooseLocalFirstOrInTurn()
    {
        final ServiceKey<String> key = ServiceKey.of(String.class, "greeter");
        final ActorRef<String> one = ActorRef.of(mortal(new LinkedBlockingQueue<>()));
        final ActorRef<String> two = ActorRef.of(mortal(new LinkedBlockingQueue<>()));
        registry.register(key, one);
        registry.register(key, two);

        assertThat(registry.lookup(key)).containsExactly(one, two);
        assertThat(registry.pickLocalFirst(key.id()).orElseThrow().actor()).isEqualTo(one.id());
        assertThat(registry.pickRoundRobin(key.id()).orElseThrow().actor())
            .isNotEqualTo(registry.pickRoundRobin(key.id()).orElseThrow().actor());
        assertThat(registry.pickRoundRobin(ServiceId.of(0, "nobody"))).isEmpty();
        assertThat(registry.unregister(key, one)).isTrue();
        assertThat(registry.lookup(key)).containsExactly(two);
        ActorSystemSpi.of(system).send(new Envelope(two.id(), ActorId.NONE, 0, 0, 0L, "die", null));
    }
}
