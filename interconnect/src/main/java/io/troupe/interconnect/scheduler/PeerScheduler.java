package io.troupe.interconnect.scheduler;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import io.troupe.actor.EventTypes;
import io.troupe.actor.NodeConnected;
import io.troupe.actor.NodeDisconnected;
import io.troupe.actor.Terminated;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredReason;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The node's central scheduler for requests to peers (DESIGN.md §4): senders wait, by priority, for offers of open
 * channels; requests sent through an offer get their id from the scheduler, their response routed back by it, and
 * their receiver called exactly once (response, timeout, disconnect, shutdown, cancel); the open channels of all
 * peers together cap what the node has in flight.
 * <p>
 * It is an actor: every method here only posts an event to it, so it may be called from any thread, including from
 * a sender's or receiver's callback; callbacks run on the actor's thread, one at a time, so no two ever race and no
 * lock is taken anywhere. Peers are the nodes given at {@link #start}, as their sessions come and go
 * ({@code NodeConnected} / {@code NodeDisconnected}); a peer's channels are open only while its session is up.
 */
public final class PeerScheduler
{
    private static final System.Logger LOG = System.getLogger(PeerScheduler.class.getName());

    private record Schedule(Sender sender, Priority priority)
    {
    }

    private record WithdrawSender(Sender sender, CompletableFuture<Boolean> done)
    {
    }

    private record WithdrawReceiver(Receiver receiver, CompletableFuture<Boolean> done)
    {
    }

    private record Cancel(long requestId)
    {
    }

    private record SetChannels(int nodeId, int count)
    {
    }

    private record Stop(CompletableFuture<Void> done)
    {
    }

    private record Tick(long dueNs)
    {
    }

    private record Start(int[] peers)
    {
    }

    private final ActorSystem system;
    private final ActorId id;
    private final SchedulerCounters counters = new SchedulerCounters();
    private volatile boolean stopped;

    private PeerScheduler(final ActorSystem system, final SchedulerConfig config, final int[] peers)
    {
        this.system = system;
        this.id = system.register(new SchedulerActor(config));
        system.send(id, new Start(peers.clone()));
    }

    /**
     * Starts a scheduler on the node's actor system.
     *
     * @param system the node's actor system (with its interconnect).
     * @param config the settings.
     * @param peers  the node ids of the peers to send to (each counts while its session is up).
     * @return the scheduler.
     */
    public static PeerScheduler start(final ActorSystem system, final SchedulerConfig config, final int... peers)
    {
        return new PeerScheduler(system, config, peers);
    }

    /**
     * The scheduler actor's id: responses to its requests come back here.
     *
     * @return the id.
     */
    public ActorId id()
    {
        return id;
    }

    /**
     * Queues a sender for an offer of open channels.
     *
     * @param sender   the sender (the same one may be queued again, e.g. from its own callback).
     * @param priority its class.
     * @return false if the scheduler is stopped (the sender is discarded, {@link Sender#onDiscard}).
     */
    public boolean schedule(final Sender sender, final Priority priority)
    {
        if (sender == null || priority == null)
        {
            throw new IllegalArgumentException("a sender and a priority are needed");
        }
        system.send(id, new Schedule(sender, priority));
        return !stopped;
    }

    /**
     * Takes a waiting sender out of the queue without calling it.
     *
     * @param sender the sender.
     * @return a future of whether it was waiting.
     */
    public CompletableFuture<Boolean> withdraw(final Sender sender)
    {
        final CompletableFuture<Boolean> done = new CompletableFuture<>();
        system.send(id, new WithdrawSender(sender, done));
        return done;
    }

    /**
     * Detaches a receiver from every request it waits for, without calling it (their channels stay closed until
     * answered or timed out).
     *
     * @param receiver the receiver.
     * @return a future of whether it waited for any.
     */
    public CompletableFuture<Boolean> withdraw(final Receiver receiver)
    {
        final CompletableFuture<Boolean> done = new CompletableFuture<>();
        system.send(id, new WithdrawReceiver(receiver, done));
        return done;
    }

    /**
     * Fails a request with {@link RequestFailure#WITHDRAWN} (if it still waits).
     *
     * @param requestId the id {@link Offer#request} returned.
     */
    public void cancel(final long requestId)
    {
        system.send(id, new Cancel(requestId));
    }

    /**
     * Sets how many channels a peer has, now and whenever it connects again (0 keeps it out of offers).
     *
     * @param nodeId the peer.
     * @param count  0 to 65,536.
     */
    public void channels(final int nodeId, final int count)
    {
        if (count < 0 || count > 65_536)
        {
            throw new IllegalArgumentException("channels must be 0 to 65536, got " + count);
        }
        system.send(id, new SetChannels(nodeId, count));
    }

    /**
     * Stops: every waiting receiver fails with {@link RequestFailure#SHUTDOWN}, every waiting sender is discarded, and
     * new ones are refused.
     *
     * @return a future that completes once that is done.
     */
    public CompletableFuture<Void> stop()
    {
        stopped = true;
        final CompletableFuture<Void> done = new CompletableFuture<>();
        system.send(id, new Stop(done));
        return done;
    }

    /**
     * The scheduler's counts, readable from any thread.
     *
     * @return the counters.
     */
    public SchedulerCounters counters()
    {
        return counters;
    }

    /** The actor: owns the {@link SchedulerCore}, keeps one timer armed for the earliest deadline. */
    private final class SchedulerActor implements Behavior
    {
        private final SchedulerConfig config;
        private SchedulerCore core;
        private ActorContext ctx;
        private long armedForNs = SchedulerCore.NO_DEADLINE;

        SchedulerActor(final SchedulerConfig config)
        {
            this.config = config;
        }

        @Override
        public void receive(final ActorContext context, final Envelope envelope)
        {
            ctx = context;
            if (core == null)
            {
                core = new SchedulerCore(config, System::nanoTime, this::transmit, counters);
            }
            final Object event = envelope.event();
            if (event instanceof Schedule schedule)
            {
                core.schedule(schedule.sender(), schedule.priority());
            }
            else if (event instanceof Tick tick)
            {
                if (tick.dueNs() == armedForNs)
                {
                    armedForNs = SchedulerCore.NO_DEADLINE;
                }
                core.onTick();
            }
            else if (event instanceof NodeConnected connected)
            {
                core.peerUp(connected.nodeId());
            }
            else if (event instanceof NodeDisconnected disconnected)
            {
                core.peerDown(disconnected.nodeId());
            }
            else if (event instanceof Terminated terminated)
            {
                core.targetGone(terminated.actor());
            }
            else if (event instanceof Undelivered undelivered)
            {
                core.onUndelivered(undelivered.cookie(), undelivered.reason() == UndeliveredReason.DISCONNECTED);
            }
            else if (!command(context, event))
            {
                if (envelope.cookie() != 0 && envelope.sender() != null)
                {
                    core.onResponse(envelope.cookie(), envelope.sender().nodeId(), event);
                }
                else
                {
                    core.onStray();
                }
            }
            final RuntimeException error = core.takeCallbackError();
            if (error != null)
            {
                LOG.log(Level.WARNING, "peer scheduler: a sender's or receiver's callback failed", error);
            }
            arm();
        }

        /** The rarer events: start, withdraw, cancel, channels, stop. Whether it was one. */
        private boolean command(final ActorContext context, final Object event)
        {
            if (event instanceof Start start)
            {
                for (final int peer : start.peers())
                {
                    context.subscribeToNode(peer);
                }
            }
            else if (event instanceof WithdrawSender withdraw)
            {
                withdraw.done().complete(core.withdraw(withdraw.sender()));
            }
            else if (event instanceof WithdrawReceiver withdraw)
            {
                withdraw.done().complete(core.withdraw(withdraw.receiver()));
            }
            else if (event instanceof Cancel cancel)
            {
                core.cancel(cancel.requestId());
            }
            else if (event instanceof SetChannels set)
            {
                core.channels(set.nodeId(), set.count());
            }
            else if (event instanceof Stop stop)
            {
                core.stop();
                stop.done().complete(null);
            }
            else
            {
                return false;
            }
            return true;
        }

        /**
         * Keeps a timer armed for the earliest deadline (the priority order needs none: a starving sender is
         * recognised when the next channel opens).
         */
        private void arm()
        {
            final long next = core.nextDeadline();
            if (next != SchedulerCore.NO_DEADLINE && next < armedForNs)
            {
                armedForNs = next;
                ctx.schedule(Duration.ofNanos(Math.max(1_000_000L, next - System.nanoTime())), new Tick(next));
            }
        }

        private void transmit(final ActorId target, final Object event, final long requestId, final boolean tracked)
        {
            if (tracked && !target.isService())
            {
                ctx.watch(target); // a recipient that goes before it answers fails its requests at once (once a target)
            }
            ctx.send(target, event, EventTypes.BY_CLASS, tracked ? Envelope.FLAG_TRACK_DELIVERY : 0, requestId);
        }
    }
}
