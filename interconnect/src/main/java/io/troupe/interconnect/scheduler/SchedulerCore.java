package io.troupe.interconnect.scheduler;

import io.troupe.actor.ActorId;
import io.troupe.interconnect.scheduler.SchedulerCounters.Counter;
import org.agrona.collections.Long2ObjectHashMap;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The peer scheduler's state and rules, owned by one thread (the {@link PeerScheduler}'s actor, or a test driving it
 * with a fake clock and transport): the live peers and their channels, the waiting senders by priority, the
 * requests in flight with their deadlines. Nothing here blocks or locks; callbacks run on the owning thread.
 */
final class SchedulerCore
{
    /** How messages leave: to a peer's recipient, with the request id as cookie. */
    interface Transport
    {
        /**
         * @param requestId the cookie a response comes back with.
         * @param tracked   a request (the interconnect reports it {@code Undelivered} if it cannot deliver it).
         */
        void send(ActorId target, Object event, long requestId, boolean tracked);
    }

    /** No deadline pending. */
    static final long NO_DEADLINE = Long.MAX_VALUE;

    /** A message holding a channel closed: a request (with a receiver until it is withdrawn) or a notification. */
    private static final class InFlight
    {
        final long id;
        final PeerChannels.Peer peer;
        final int index;
        final long sentNs;
        final long deadlineNs;
        final boolean request;
        final ActorId target;
        Receiver receiver;
        boolean done;

        InFlight(final long id, final PeerChannels.Peer peer, final int index, final long sentNs, final long deadlineNs,
            final Receiver receiver, final ActorId target)
        {
            this.target = target;
            this.id = id;
            this.peer = peer;
            this.index = index;
            this.sentNs = sentNs;
            this.deadlineNs = deadlineNs;
            this.request = receiver != null;
            this.receiver = receiver;
        }
    }

    private final SchedulerConfig config;
    private final LongSupplier clock;
    private final Transport transport;
    private final SchedulerCounters counters;
    private final PeerChannels peers;
    private final SenderQueue waiting;
    private final Long2ObjectHashMap<InFlight> inFlight = new Long2ObjectHashMap<>();
    /** Messages in flight by timeout: within one, deadlines come in the order of sending. */
    private final Map<Long, ArrayDeque<InFlight>> deadlines = new HashMap<>();
    /** Bumped whenever a channel opens: a sender that declined an offer is offered again only after that. */
    private long version;
    private long nextRequestId = 1;
    private int inFlightCount;
    private int peakInFlight;
    private boolean stopped;
    private boolean offering;
    private RuntimeException lastCallbackError;

    SchedulerCore(final SchedulerConfig config, final LongSupplier clock, final Transport transport,
        final SchedulerCounters counters)
    {
        this.config = config;
        this.clock = clock;
        this.transport = transport;
        this.counters = counters;
        this.waiting = new SenderQueue(config.starvationAge().toNanos());
        this.peers = new PeerChannels(config.channelsPerPeer());
    }

    // ----- peers

    /** A session with the peer came up: its channels are open. A peer already up is left as it is. */
    void peerUp(final int nodeId)
    {
        if (stopped || peers.contains(nodeId))
        {
            return;
        }
        if (peers.add(nodeId, counters.peerGauge(nodeId)).channels > 0)
        {
            version++;
            makeOffers();
        }
    }

    /** The peer's session ended: its requests fail with {@link RequestFailure#DISCONNECTED}, its channels are gone. */
    void peerDown(final int nodeId)
    {
        final PeerChannels.Peer peer = peers.remove(nodeId);
        if (peer == null)
        {
            return;
        }
        counters.peerGone(nodeId);
        final List<InFlight> lost = new ArrayList<>();
        for (final InFlight message : inFlight.values())
        {
            if (message.peer == peer)
            {
                lost.add(message);
            }
        }
        lost.sort((a, b) -> Long.compare(a.id, b.id));
        for (final InFlight message : lost)
        {
            finish(message);
            if (message.request)
            {
                counters.add(Counter.DISCONNECT_FAILURES, 1);
                fail(message, RequestFailure.DISCONNECTED);
            }
        }
        makeOffers();
    }

    /**
     * A request's recipient is gone (its watch said so, before it answered): its requests fail at once with
     * {@link RequestFailure#UNDELIVERED} rather than at their timeout, and their channels open.
     */
    void targetGone(final ActorId target)
    {
        final List<InFlight> lost = new ArrayList<>();
        for (final InFlight message : inFlight.values())
        {
            if (message.request && target.equals(message.target))
            {
                lost.add(message);
            }
        }
        lost.sort((a, b) -> Long.compare(a.id, b.id));
        for (final InFlight message : lost)
        {
            finish(message);
            counters.add(Counter.UNDELIVERED_FAILURES, 1);
            fail(message, RequestFailure.UNDELIVERED);
        }
        makeOffers();
    }

    /** Sets how many channels a peer has (now if it is connected, and whenever it connects again). */
    void channels(final int nodeId, final int count)
    {
        if (count < 0 || count > 65_536)
        {
            throw new IllegalArgumentException("channels must be 0 to 65536, got " + count);
        }
        if (peers.setChannels(nodeId, count))
        {
            version++;
        }
        makeOffers();
    }

    boolean isOpen(final Channel channel)
    {
        return peers.isOpen(channel);
    }

    // ----- senders

    /** Queues a sender; it may be offered channels before this returns. */
    void schedule(final Sender sender, final Priority priority)
    {
        if (stopped || waiting.size() >= config.maxWaitingSenders())
        {
            counters.add(Counter.SENDERS_DISCARDED, 1);
            discard(sender);
            return;
        }
        waiting.add(sender, priority, clock.getAsLong());
        counters.set(Counter.WAITING_SENDERS, waiting.size());
        makeOffers();
    }

    /** Takes every queued entry of the sender out without calling it; whether there was one. */
    boolean withdraw(final Sender sender)
    {
        final boolean found = waiting.withdraw(sender);
        counters.set(Counter.WAITING_SENDERS, waiting.size());
        return found;
    }

    /**
     * Detaches the receiver from every request it waits for, without calling it; the requests' channels stay closed
     * until they are answered or time out. Whether it waited for any.
     */
    boolean withdraw(final Receiver receiver)
    {
        boolean found = false;
        for (final InFlight message : inFlight.values())
        {
            if (message.receiver == receiver)
            {
                message.receiver = null;
                found = true;
            }
        }
        return found;
    }

    /** Fails one request with {@link RequestFailure#WITHDRAWN} now; its channel stays closed until it is answered. */
    boolean cancel(final long requestId)
    {
        final InFlight message = inFlight.get(requestId);
        if (message == null || message.receiver == null)
        {
            return false;
        }
        counters.add(Counter.CANCELLED, 1);
        final Receiver receiver = message.receiver;
        message.receiver = null;
        call(receiver, requestId, null, RequestFailure.WITHDRAWN);
        return true;
    }

    /** Fails every receiver with {@link RequestFailure#SHUTDOWN}, discards every sender and refuses new ones. */
    void stop()
    {
        if (stopped)
        {
            return;
        }
        stopped = true;
        final List<InFlight> all = new ArrayList<>(inFlight.values());
        all.sort((a, b) -> Long.compare(a.id, b.id));
        for (final InFlight message : all)
        {
            finish(message);
            fail(message, RequestFailure.SHUTDOWN);
        }
        waiting.drain(sender ->
        {
            counters.add(Counter.SENDERS_DISCARDED, 1);
            discard(sender);
        });
        counters.set(Counter.WAITING_SENDERS, 0);
    }

    boolean isStopped()
    {
        return stopped;
    }

    // ----- messages

    /** Sends through an offer (checked by the offer): closes the channel, registers the receiver. */
    long send(final Channel channel, final ActorId target, final Object event, final long timeoutNs,
        final Receiver receiver)
    {
        final PeerChannels.Peer peer = peers.get(channel.nodeId());
        final long now = clock.getAsLong();
        final long id = nextRequestId++;
        final InFlight message = new InFlight(id, peer, channel.index(), now, now + timeoutNs, receiver, target);
        peer.close(channel.index());
        inFlightCount++;
        counters.set(Counter.IN_FLIGHT, inFlightCount);
        if (inFlightCount > peakInFlight)
        {
            peakInFlight = inFlightCount;
            counters.set(Counter.IN_FLIGHT_PEAK, peakInFlight);
        }
        inFlight.put(id, message);
        deadlines.computeIfAbsent(timeoutNs, t -> new ArrayDeque<>()).addLast(message);
        counters.add(receiver != null ? Counter.REQUESTS : Counter.NOTIFICATIONS, 1);
        transport.send(target, event, id, receiver != null);
        return id;
    }

    /** A response with a request id as cookie, from a node. */
    void onResponse(final long requestId, final int fromNode, final Object response)
    {
        final InFlight message = inFlight.get(requestId);
        if (message == null || !message.request)
        {
            counters.add(Counter.LATE_RESPONSES, 1);
            return;
        }
        if (message.peer.nodeId != fromNode)
        {
            counters.add(Counter.STRAY_RESPONSES, 1);
            return;
        }
        message.peer.onRoundTrip(clock.getAsLong() - message.sentNs);
        finish(message);
        if (message.receiver != null)
        {
            counters.add(Counter.RESPONSES, 1);
            call(message.receiver, requestId, response, null);
        }
        makeOffers();
    }

    /** A message without a request id where a response was expected. */
    void onStray()
    {
        counters.add(Counter.STRAY_RESPONSES, 1);
    }

    /** The interconnect could not deliver a request. */
    void onUndelivered(final long requestId, final boolean disconnected)
    {
        final InFlight message = inFlight.get(requestId);
        if (message == null)
        {
            return; // already failed (the peer's session ended first) or answered
        }
        finish(message);
        counters.add(disconnected ? Counter.DISCONNECT_FAILURES : Counter.UNDELIVERED_FAILURES, 1);
        fail(message, disconnected ? RequestFailure.DISCONNECTED : RequestFailure.UNDELIVERED);
        makeOffers();
    }

    /** Fails what timed out and opens its channels; also promotes starving senders by the passing time. */
    void onTick()
    {
        final long now = clock.getAsLong();
        final List<InFlight> expired = new ArrayList<>();
        for (final ArrayDeque<InFlight> queue : deadlines.values())
        {
            InFlight head;
            while ((head = queue.peekFirst()) != null && (head.done || head.deadlineNs - now <= 0))
            {
                queue.pollFirst();
                if (!head.done)
                {
                    finish(head);
                    expired.add(head);
                }
            }
        }
        deadlines.values().removeIf(ArrayDeque::isEmpty);
        expired.sort((a, b) -> Long.compare(a.id, b.id));
        for (final InFlight message : expired)
        {
            if (message.request)
            {
                counters.add(Counter.TIMEOUTS, 1);
                fail(message, RequestFailure.TIMEOUT);
            }
        }
        if (!expired.isEmpty() || waiting.size() > 0)
        {
            makeOffers();
        }
    }

    /** The earliest deadline of a message in flight (clock ns), or {@link #NO_DEADLINE}. */
    long nextDeadline()
    {
        long next = NO_DEADLINE;
        for (final ArrayDeque<InFlight> queue : deadlines.values())
        {
            for (final InFlight message : queue)
            {
                if (!message.done)
                {
                    next = Math.min(next, message.deadlineNs);
                    break;
                }
            }
        }
        return next;
    }

    /** The last exception a callback threw (for the actor to log), cleared by reading it. */
    RuntimeException takeCallbackError()
    {
        final RuntimeException error = lastCallbackError;
        lastCallbackError = null;
        return error;
    }

    int inFlightCount()
    {
        return inFlightCount;
    }

    int waitingCount()
    {
        return waiting.size();
    }

    // ----- internals

    /** Takes a message out of flight and opens its channel (if its peer is still the connected one). */
    private void finish(final InFlight message)
    {
        message.done = true;
        inFlight.remove(message.id);
        inFlightCount--;
        counters.set(Counter.IN_FLIGHT, inFlightCount);
        if (peers.isConnected(message.peer) && message.peer.open(message.index))
        {
            version++;
        }
        final ArrayDeque<InFlight> queue = deadlines.get(message.deadlineNs - message.sentNs);
        while (queue != null && !queue.isEmpty() && queue.peekFirst().done)
        {
            queue.pollFirst();
        }
    }

    private void fail(final InFlight message, final RequestFailure reason)
    {
        final Receiver receiver = message.receiver;
        if (receiver != null)
        {
            message.receiver = null;
            call(receiver, message.id, null, reason);
        }
    }

    private void call(final Receiver receiver, final long requestId, final Object response, final RequestFailure reason)
    {
        try
        {
            if (reason == null)
            {
                receiver.onSuccess(requestId, response);
            }
            else
            {
                receiver.onFailure(requestId, reason);
            }
        }
        catch (final RuntimeException ex)
        {
            counters.add(Counter.CALLBACK_ERRORS, 1);
            lastCallbackError = ex;
        }
    }

    private void discard(final Sender sender)
    {
        try
        {
            sender.onDiscard();
        }
        catch (final RuntimeException ex)
        {
            counters.add(Counter.CALLBACK_ERRORS, 1);
            lastCallbackError = ex;
        }
    }

    /**
     * Offers the open channels to waiting senders, best placed first, until no channel is open, the node-wide cap
     * is reached, or every waiting sender has seen the channels open now. Re-entrant calls (a callback scheduling)
     * are folded into the running loop.
     */
    private void makeOffers()
    {
        if (offering || stopped)
        {
            return;
        }
        offering = true;
        try
        {
            while (!stopped)
            {
                final int budget = config.maxInFlight() - inFlightCount;
                if (budget <= 0 || waiting.size() == 0)
                {
                    return;
                }
                final SenderQueue.Waiting next = waiting.next(clock.getAsLong(), version);
                if (next == null)
                {
                    return;
                }
                final List<Channel> open = peers.open();
                if (open.isEmpty())
                {
                    return;
                }
                next.seenVersion = version;
                final int size = Math.min(waiting.size() > 1 ? 1 : open.size(), budget);
                final Offer offer = new Offer(this, open, size);
                counters.add(Counter.OFFERS, 1);
                try
                {
                    next.sender.onOffer(offer);
                }
                catch (final RuntimeException ex)
                {
                    counters.add(Counter.CALLBACK_ERRORS, 1);
                    lastCallbackError = ex;
                }
                finally
                {
                    offer.invalidate();
                }
                if (offer.used() > 0 && waiting.remove(next))
                {
                    counters.set(Counter.WAITING_SENDERS, waiting.size());
                }
            }
        }
        finally
        {
            offering = false;
        }
    }
}
