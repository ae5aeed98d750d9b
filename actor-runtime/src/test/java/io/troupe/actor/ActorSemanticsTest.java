package io.troupe.actor;

import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static io.troupe.actor.TestActors.USER_TYPE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an actor is: one event at a time, FIFO per sender, become, register, shared mailboxes, handler
 * failures. Every test runs a real system with two worker threads.
 */
@Timeout(60)
class ActorSemanticsTest
{
    private static final int NODE = 11;

    private ActorSystem system;

    @AfterEach
    void tearDown()
    {
        if (system != null)
        {
            system.close();
        }
    }

    /** A numbered event from sender number {@code sender}. */
    record Numbered(int sender, int seq)
    {
    }

    /**
     * Checks, on its own thread, that it is never entered twice at once and that every sender's numbers
     * arrive in order. Its state is plain fields: the runtime must make them visible across worker threads.
     */
    static final class OrderChecker implements Behavior
    {
        final AtomicInteger inside;
        final AtomicInteger overlaps;
        final int[] expectedNext;
        final ActorId[] senderIds;
        final List<String> violations = new ArrayList<>();
        final CountDownLatch done;
        int handled;

        OrderChecker(final int senders, final int total, final AtomicInteger inside, final AtomicInteger overlaps)
        {
            this.inside = inside;
            this.overlaps = overlaps;
            this.expectedNext = new int[senders];
            this.senderIds = new ActorId[senders];
            this.done = new CountDownLatch(total);
        }

        @Override
        public void receive(final ActorContext ctx, final Envelope envelope)
        {
            if (inside.incrementAndGet() != 1)
            {
                overlaps.incrementAndGet();
            }
            final Numbered n = (Numbered)envelope.event();
            if (n.seq() != expectedNext[n.sender()])
            {
                violations.add("sender " + n.sender() + ": got " + n.seq() + ", expected " + expectedNext[n.sender()]);
            }
            expectedNext[n.sender()] = n.seq() + 1;
            final ActorId expectedSender = senderIds[n.sender()];
            if (expectedSender != null && !expectedSender.equals(envelope.sender()))
            {
                violations.add("sender " + n.sender() + ": envelope sender " + envelope.sender());
            }
            TestActors.spin(200); // widen the window in which a second thread could enter
            handled++;
            inside.decrementAndGet();
            done.countDown();
        }
    }

    @ParameterizedTest
    @EnumSource(MailboxType.class)
    void handlesOneEventAtATimeAndKeepsOrderPerSender(final MailboxType type) throws Exception
    {
        system = TestActors.start(NODE, 2);
        final int actorSenders = 3;
        final int threadSenders = 3;
        final int perSender = 3_000;
        final int senders = actorSenders + threadSenders;
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger overlaps = new AtomicInteger();
        final OrderChecker checker = new OrderChecker(senders, senders * perSender, inside, overlaps);
        final ActorId target = system.register(checker, 0, type);

        final ActorId[] senderActors = new ActorId[actorSenders];
        for (int s = 0; s < actorSenders; s++)
        {
            final int senderNo = s;
            senderActors[s] = system.register((ctx, envelope) ->
            {
                for (int i = 0; i < perSender; i++)
                {
                    ctx.send(target, new Numbered(senderNo, i));
                }
            });
            checker.senderIds[s] = senderActors[s];
        }

        final CountDownLatch go = new CountDownLatch(1);
        final List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < threadSenders; t++)
        {
            final int senderNo = actorSenders + t;
            final Thread thread = new Thread(() ->
            {
                try
                {
                    go.await();
                }
                catch (final InterruptedException ex)
                {
                    return;
                }
                for (int i = 0; i < perSender; i++)
                {
                    system.send(target, new Numbered(senderNo, i));
                }
            }, "outside-sender-" + t);
            thread.start();
            threads.add(thread);
        }
        for (final ActorId sender : senderActors)
        {
            system.send(sender, "go");
        }
        go.countDown();

        Await.latch(checker.done, "all numbered events");
        for (final Thread thread : threads)
        {
            thread.join(TestActors.WAIT.toMillis());
        }
        // the latch orders the checker's plain writes before these reads
        assertThat(overlaps.get()).as("handler entered concurrently").isZero();
        assertThat(checker.violations).isEmpty();
        assertThat(checker.handled).isEqualTo(senders * perSender);
        for (int s = 0; s < senders; s++)
        {
            assertThat(checker.expectedNext[s]).as("events of sender %d", s).isEqualTo(perSender);
        }
    }

    @Test
    void becomeSwitchesTheHandlerFromTheNextEventAndStateLivesInTheBehaviour() throws Exception
    {
        system = TestActors.start(NODE, 2);
        final BlockingQueue<String> log = new LinkedBlockingQueue<>();

        final class Counting implements Behavior
        {
            int count;

            @Override
            public void receive(final ActorContext ctx, final Envelope envelope)
            {
                if ("flip".equals(envelope.event()))
                {
                    final Counting self = this;
                    ctx.become((c, e) ->
                    {
                        log.add("B:" + e.event() + ":" + self.count);
                        if ("flip".equals(e.event()))
                        {
                            c.become(self);
                        }
                    });
                }
                else
                {
                    count++;
                }
                log.add("A:" + envelope.event() + ":" + count);
            }
        }

        final ActorId actor = system.register(new Counting());
        for (final String event : List.of("inc", "inc", "flip", "inc", "inc", "flip", "inc"))
        {
            system.send(actor, event);
        }
        final List<String> seen = new ArrayList<>();
        for (int i = 0; i < 7; i++)
        {
            seen.add(Await.next(log));
        }
        assertThat(seen).containsExactly(
            "A:inc:1", "A:inc:2", "A:flip:2", // the flip itself is still handled by A
            "B:inc:2", "B:inc:2", "B:flip:2",
            "A:inc:3"); // back to the same object: its count was kept
    }

    @Test
    void registerFromAnActorCreatesAnActorOnANewMailboxInTheSamePool() throws Exception
    {
        system = TestActors.start(NODE, 2);
        final TestActors.Recorder child = new TestActors.Recorder();
        final BlockingQueue<ActorId> ids = new LinkedBlockingQueue<>();
        final ActorId parent = system.register((ctx, envelope) ->
        {
            ids.add(ctx.self());
            ids.add(ctx.register(child));
        });
        system.send(parent, "spawn");
        assertThat(Await.next(ids)).isEqualTo(parent);
        final ActorId childId = Await.next(ids);

        assertThat(childId.hint()).isNotEqualTo(parent.hint());
        assertThat(childId.localId()).isNotEqualTo(parent.localId());
        assertThat(childId.poolId()).isEqualTo(parent.poolId());
        assertThat(childId.nodeId()).isEqualTo(NODE);
        assertThat(childId.isService()).isFalse();
        assertThat(system.counters().actorsAlive()).isEqualTo(2);

        system.send(childId, "hello");
        final Envelope received = child.next();
        assertThat(received.event()).isEqualTo("hello");
        assertThat(received.recipient()).isEqualTo(childId);
    }

    @Test
    void registerWithPoolAndTypePinsTheNewMailbox() throws Exception
    {
        final ActorSystemConfig config = TestActors.config(NODE)
            .pool(PoolConfig.named("alpha").threads(1))
            .pool(PoolConfig.named("beta").threads(2));
        final String prefix = config.threadNamePrefix() + NODE + '-';
        system = ActorSystem.start(config);
        final int alpha = system.poolId("alpha");
        final int beta = system.poolId("beta");
        assertThat(alpha).isZero();
        assertThat(beta).isEqualTo(1);

        final BlockingQueue<String> childThreads = new LinkedBlockingQueue<>();
        final Behavior childBehavior = (ctx, envelope) ->
        {
            childThreads.add(Thread.currentThread().getName());
            if ("die".equals(envelope.event()))
            {
                ctx.passAway();
            }
        };
        final BlockingQueue<String> parentThreads = new LinkedBlockingQueue<>();
        final BlockingQueue<ActorId> ids = new LinkedBlockingQueue<>();
        final ActorId parent = system.register((ctx, envelope) ->
        {
            parentThreads.add(Thread.currentThread().getName());
            ids.add(ctx.register(childBehavior, beta, MailboxType.REVOLVING));
        }, alpha, MailboxType.SIMPLE);

        system.send(parent, "spawn");
        final ActorId child = Await.next(ids);
        assertThat(Await.next(parentThreads)).startsWith(prefix + "alpha-");
        assertThat(child.poolId()).isEqualTo(beta);
        assertThat(parent.poolId()).isEqualTo(alpha);

        for (int i = 0; i < 20; i++)
        {
            system.send(child, i);
        }
        for (int i = 0; i < 20; i++)
        {
            assertThat(Await.next(childThreads)).startsWith(prefix + "beta-");
        }

        // The mailbox type shows in reuse: a vacant mailbox is reused only for the same pool and type.
        final long vacantBefore = system.counters().mailboxesVacant();
        system.send(child, "die");
        assertThat(Await.next(childThreads)).startsWith(prefix + "beta-");
        Await.equal(() -> system.counters().mailboxesVacant(), vacantBefore + 1, "vacant mailboxes");
        final ActorId simpleOnBeta = system.register(new TestActors.Recorder(), beta, MailboxType.SIMPLE);
        final ActorId revolvingOnAlpha = system.register(new TestActors.Recorder(), alpha, MailboxType.REVOLVING);
        assertThat(simpleOnBeta.hint()).isNotEqualTo(child.hint());
        assertThat(revolvingOnAlpha.hint()).isNotEqualTo(child.hint());
        final long vacantBeforeReuse = system.counters().mailboxesVacant();
        final ActorId revolvingOnBeta = system.register(new TestActors.Recorder(), beta, MailboxType.REVOLVING);
        assertThat(revolvingOnBeta.hint()).as("the last vacated mailbox of that pool and type").isEqualTo(child.hint());
        assertThat(revolvingOnBeta.localId()).isNotEqualTo(child.localId());
        assertThat(system.counters().mailboxesVacant()).isEqualTo(vacantBeforeReuse - 1);
    }

    @Test
    void registerOnOwnMailboxSharesTheMailboxButKeepsSeparateAddresses() throws Exception
    {
        system = TestActors.start(NODE, 2);
        final int perActor = 2_000;
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger overlaps = new AtomicInteger();
        final Set<String> wrongSelf = ConcurrentHashMap.newKeySet();
        final CountDownLatch done = new CountDownLatch(2 * perActor);
        final AtomicInteger primaryCount = new AtomicInteger();
        final AtomicInteger siblingCount = new AtomicInteger();
        final BlockingQueue<ActorId> ids = new LinkedBlockingQueue<>();

        final Behavior sibling = (ctx, envelope) ->
        {
            if (inside.incrementAndGet() != 1)
            {
                overlaps.incrementAndGet();
            }
            if (!ctx.self().equals(envelope.recipient()))
            {
                wrongSelf.add("sibling got " + envelope.recipient());
            }
            siblingCount.incrementAndGet();
            TestActors.spin(200);
            inside.decrementAndGet();
            done.countDown();
        };
        final ActorId primary = system.register((ctx, envelope) ->
        {
            if ("spawn".equals(envelope.event()))
            {
                ids.add(ctx.registerOnOwnMailbox(sibling));
                return;
            }
            if (inside.incrementAndGet() != 1)
            {
                overlaps.incrementAndGet();
            }
            if (!ctx.self().equals(envelope.recipient()))
            {
                wrongSelf.add("primary got " + envelope.recipient());
            }
            primaryCount.incrementAndGet();
            TestActors.spin(200);
            inside.decrementAndGet();
            done.countDown();
        });
        final SystemCounters beforeSpawn = system.counters();
        system.send(primary, "spawn");
        final ActorId siblingId = Await.next(ids);

        assertThat(siblingId.hint()).isEqualTo(primary.hint());
        assertThat(siblingId.poolId()).isEqualTo(primary.poolId());
        assertThat(siblingId.nodeId()).isEqualTo(primary.nodeId());
        assertThat(siblingId.localId()).isNotEqualTo(primary.localId());
        assertThat(siblingId).isNotEqualTo(primary);
        assertThat(system.counters().actorsAlive()).isEqualTo(2);
        assertThat(system.counters().mailboxesCreated()).as("no new mailbox").isEqualTo(beforeSpawn.mailboxesCreated());
        assertThat(system.counters().mailboxesVacant()).isEqualTo(beforeSpawn.mailboxesVacant());

        final List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 2; t++)
        {
            final Thread thread = new Thread(() ->
            {
                for (int i = 0; i < perActor / 2; i++)
                {
                    system.send(primary, i);
                    system.send(siblingId, i);
                }
            });
            thread.start();
            threads.add(thread);
        }
        Await.latch(done, "events to both actors");
        for (final Thread thread : threads)
        {
            thread.join(TestActors.WAIT.toMillis());
        }
        assertThat(overlaps.get()).as("actors on one mailbox ran concurrently").isZero();
        assertThat(wrongSelf).isEmpty();
        assertThat(primaryCount.get()).isEqualTo(perActor);
        assertThat(siblingCount.get()).isEqualTo(perActor);
    }

    @Test
    void aSharedMailboxActorCanPassAwayAloneWhileTheOtherStays() throws Exception
    {
        system = TestActors.start(NODE, 2);
        final TestActors.Recorder primaryLog = new TestActors.Recorder();
        final BlockingQueue<ActorId> ids = new LinkedBlockingQueue<>();
        final ActorId primary = system.register((ctx, envelope) ->
        {
            if ("spawn".equals(envelope.event()))
            {
                ids.add(ctx.registerOnOwnMailbox((c, e) -> c.passAway()));
            }
            else
            {
                primaryLog.receive(ctx, envelope);
            }
        });
        system.send(primary, "spawn");
        final ActorId sibling = Await.next(ids);
        final long alive = system.counters().actorsAlive();
        final long vacant = system.counters().mailboxesVacant();
        final long passedAway = system.counters().get(SystemCounter.ACTORS_PASSED_AWAY);

        system.send(sibling, "die");
        Await.equal(() -> system.counters().actorsAlive(), alive - 1, "actors alive");
        assertThat(system.counters().get(SystemCounter.ACTORS_PASSED_AWAY)).as("actors passed away")
            .isEqualTo(passedAway + 1);
        assertThat(system.counters().mailboxesVacant()).as("the primary still lives there").isEqualTo(vacant);

        final TestActors.Probe probe = new TestActors.Probe();
        final ActorId probeId = system.register(probe);
        system.send(probeId, TestActors.Send.tracked(sibling, "anyone?", 5));
        TestActors.assertUndelivered(probe.next(), probeId, sibling, USER_TYPE, 5, UndeliveredReason.ACTOR_UNKNOWN);

        system.send(primary, "still here");
        assertThat(primaryLog.next().event()).isEqualTo("still here");
    }

    @Test
    void selfIsTheIdReturnedByRegister() throws Exception
    {
        system = TestActors.start(NODE, 2);
        final BlockingQueue<ActorId> selves = new LinkedBlockingQueue<>();
        final ActorId actor = system.register((ctx, envelope) -> selves.add(ctx.self()));
        system.send(actor, "who");
        assertThat(Await.next(selves)).isEqualTo(actor).hasSameHashCodeAs(actor);
        assertThat(actor.nodeId()).isEqualTo(NODE);
    }

    @Test
    void handlerExceptionsAreCountedReportedAndTheActorKeepsGoing() throws Exception
    {
        final TestActors.Failures failures = new TestActors.Failures();
        system =
            ActorSystem.start(TestActors.config(NODE).pool(PoolConfig.named("x").threads(2)).failureHandler(failures));
        final TestActors.Recorder log = new TestActors.Recorder();
        final IllegalStateException boom = new IllegalStateException("boom");
        final ActorId actor = system.register((ctx, envelope) ->
        {
            if ("boom".equals(envelope.event()))
            {
                throw boom;
            }
            log.receive(ctx, envelope);
        });

        system.send(actor, "before");
        system.send(actor, "boom", USER_TYPE, 0, 99L);
        system.send(actor, "after");

        assertThat(log.next().event()).isEqualTo("before");
        assertThat(log.next().event()).isEqualTo("after");
        final TestActors.Failure failure = Await.next(failures.received);
        assertThat(failure.actor()).isEqualTo(actor);
        assertThat(failure.envelope().event()).isEqualTo("boom");
        assertThat(failure.envelope().cookie()).isEqualTo(99L);
        assertThat(failure.envelope().recipient()).isEqualTo(actor);
        assertThat(failure.error()).isSameAs(boom);
        assertThat(system.counters().handlerFailures()).isEqualTo(1);
        assertThat(system.counters().actorsAlive()).isEqualTo(1);
        assertThat(failures.received).isEmpty();
    }

    @Test
    void aThrowingFailureHandlerDoesNotStopTheMailbox() throws Exception
    {
        final AtomicReference<Throwable> reported = new AtomicReference<>();
        system = ActorSystem.start(TestActors.config(NODE).pool(PoolConfig.named("x").threads(1)).failureHandler(
            (actor, envelope, error) ->
            {
                reported.set(error);
                throw new IllegalStateException("failure handler fails too");
            }));
        final TestActors.Recorder log = new TestActors.Recorder();
        final ActorId actor = system.register((ctx, envelope) ->
        {
            if ("boom".equals(envelope.event()))
            {
                throw new AssertionError("an Error, not an Exception");
            }
            log.receive(ctx, envelope);
        });
        system.send(actor, "boom");
        system.send(actor, "after");
        assertThat(log.next().event()).isEqualTo("after");
        assertThat(reported.get()).isInstanceOf(AssertionError.class);
        assertThat(system.counters().handlerFailures()).isEqualTo(1);
    }
}
