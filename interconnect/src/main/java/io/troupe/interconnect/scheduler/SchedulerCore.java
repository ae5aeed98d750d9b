package io.troupe.interconnect.scheduler;

import io.troupe.actor.ActorId;
import io.troupe.interconnect.scheduler.SchedulerCounters.Counter;
import org.agrona.collections.Long2ObjectHashMap;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
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

    /** A connected peer: one incarnation of a session with it. */
    private static final class Peer
    {
        final int nodeId;
        final java.util.concurrent.atomic.AtomicLong gauge;
        int channels;
        boolean[] busy;
        int inFlight;
        /** Smoothed round trip of its responses, ns (0 before the first). */
        long rttNs;

        Peer(final int nodeId, final int channels, final java.util.concurrent.atomic.AtomicLong gauge)
        {
            this.nodeId = nodeId;
            this.channels = channels;
            this.busy = new boolean[channels];
            this.gauge = gauge;
        }

        boolean isOpen(final int index)
        {
            return index < channels && !busy[index];
        }
    }

    /** A sender in the queue. */
    private static final class Waiting
    {
        final Sender sender;
        final int priority;
        final long order;
        final long sinceNs;
        long seenVersion = -1;

        Waiting(final Sender sender, final int priority, final long order, final long sinceNs)
        {
            this.sender = sender;
            this.priority = priority;
            this.order = order;
            this.sinceNs = sinceNs;
        }
    }

    /** A message holding a channel closed: a request (with a receiver until it is withdrawn) or a notification. */
    private static final class InFlight
    {
        final long id;
        final Peer peer;
        final int index;
        final long sentNs;
        final long deadlineNs;
        final boolean request;
        Receiver receiver;
        boolean done;

        InFlight(final long id, final Peer peer, final int index, final long sentNs, final long deadlineNs,
            final Receiver receiver)
        {
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
    private final Map<Integer, Peer> peers = new HashMap<>();
    private final Map<Integer, Integer> channelsByPeer = new HashMap<>();
    private final List<ArrayDeque<Waiting>> waiting = new ArrayList<>();
    private final Long2ObjectHashMap<InFlight> inFlight = new Long2ObjectHashMap<>();
    /** Messages in flight by timeout: within one, deadlines come in the order of sending. */
    private final Map<Long, ArrayDeque<InFlight>> deadlines = new HashMap<>();
    private final long starvationNs;
    /** Bumped whenever a channel opens: a sender that declined an offer is offered again only after that. */
    private long version;
    private long order;
    private long nextRequestId = 1;
    private int waitingCount;
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
        this.starvationNs = config.starvationAge().toNanos();
        for (int i = 0; i < Priority.values().length; i++)
        {
            waiting.add(new ArrayDeque<>());
        }
    }

    // ----- peers

    /** A session with the peer came up: its channels are open. A peer already up is left as it is. */
    void peerUp(final int nodeId)
    {
        if (stopped || peers.containsKey(nodeId))
        {
            return;
        }
        final int channels = channelsByPeer.getOrDefault(nodeId, config.channelsPerPeer());
        peers.put(nodeId, new Peer(nodeId, channels, counters.peerGauge(nodeId)));
        if (channels > 0)
        {
            version++;
            makeOffers();
        }
    }

    /** The peer's session ended: its requests fail with {@link RequestFailure#DISCONNECTED}, its channels are gone. */
    void peerDown(final int nodeId)
    {
        final Peer peer = peers.remove(nodeId);
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

    /** Sets how many channels a peer has (now if it is connected, and whenever it connects again). */
    void channels(final int nodeId, final int count)
    {
        if (count < 0 || count > 65_536)
        {
            throw new IllegalArgumentException("channels must be 0 to 65536, got " + count);
        }
        channelsByPeer.put(nodeId, count);
        final Peer peer = peers.get(nodeId);
        if (peer == null)
        {
            return;
        }
        if (count > peer.busy.length)
        {
            peer.busy = java.util.Arrays.copyOf(peer.busy, count);
        }
        if (count > peer.channels)
        {
            version++;
        }
        peer.channels = count; // a closed channel beyond the count is retired when it opens
        makeOffers();
    }

    boolean isOpen(final Channel channel)
    {
        final Peer peer = peers.get(channel.nodeId());
        return peer != null && peer.isOpen(channel.index());
    }

    // ----- senders

    /** Queues a sender; it may be offered channels before this returns. */
    void schedule(final Sender sender, final Priority priority)
    {
        if (stopped || waitingCount >= config.maxWaitingSenders())
        {
            counters.add(Counter.SENDERS_DISCARDED, 1);
            discard(sender);
            return;
        }
        waiting.get(priority.ordinal()).addLast(new Waiting(sender, priority.ordinal(), order++, clock.getAsLong()));
        waitingCount++;
        counters.set(Counter.WAITING_SENDERS, waitingCount);
        makeOffers();
    }

    /** Takes every queued entry of the sender out without calling it; whether there was one. */
    boolean withdraw(final Sender sender)
    {
        boolean found = false;
        for (final ArrayDeque<Waiting> queue : waiting)
        {
            final Iterator<Waiting> entries = queue.iterator();
            while (entries.hasNext())
            {
                if (entries.next().sender == sender)
                {
                    entries.remove();
                    waitingCount--;
                    found = true;
                }
            }
        }
        counters.set(Counter.WAITING_SENDERS, waitingCount);
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
        for (final ArrayDeque<Waiting> queue : waiting)
        {
            Waiting entry;
            while ((entry = queue.pollFirst()) != null)
            {
                waitingCount--;
                counters.add(Counter.SENDERS_DISCARDED, 1);
                discard(entry.sender);
            }
        }
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
        final Peer peer = peers.get(channel.nodeId());
        final long now = clock.getAsLong();
        final long id = nextRequestId++;
        final InFlight message = new InFlight(id, peer, channel.index(), now, now + timeoutNs, receiver);
        peer.busy[channel.index()] = true;
        peer.inFlight++;
        peer.gauge.lazySet(peer.inFlight);
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
        final long rtt = clock.getAsLong() - message.sentNs;
        message.peer.rttNs = message.peer.rttNs == 0 ? rtt : message.peer.rttNs + (rtt - message.peer.rttNs) / 8;
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
        if (!expired.isEmpty() || waitingCount > 0)
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
        return waitingCount;
    }

    // ----- internals

    /** Takes a message out of flight and opens its channel (if its peer is still the connected one). */
    private void finish(final InFlight message)
    {
        message.done = true;
        inFlight.remove(message.id);
        inFlightCount--;
        counters.set(Counter.IN_FLIGHT, inFlightCount);
        final Peer peer = message.peer;
        if (peers.get(peer.nodeId) == peer)
        {
            peer.busy[message.index] = false;
            peer.inFlight--;
            peer.gauge.lazySet(peer.inFlight);
            if (message.index < peer.channels)
            {
                version++;
            }
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
                if (budget <= 0 || waitingCount == 0)
                {
                    return;
                }
                final Waiting next = nextEligible(clock.getAsLong());
                if (next == null)
                {
                    return;
                }
                final List<Channel> open = openChannels();
                if (open.isEmpty())
                {
                    return;
                }
                next.seenVersion = version;
                final int size = Math.min(waitingCount > 1 ? 1 : open.size(), budget);
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
                if (offer.used() > 0 && waiting.get(next.priority).remove(next))
                {
                    waitingCount--;
                    counters.set(Counter.WAITING_SENDERS, waitingCount);
                }
            }
        }
        finally
        {
            offering = false;
        }
    }

    /**
     * The sender to offer to next among those that have not seen the channels open now: the longest waiting of
     * those that starve (waited {@link SchedulerConfig#starvationAge} or more), else the first of the highest class.
     */
    private Waiting nextEligible(final long now)
    {
        Waiting starving = null;
        Waiting first = null;
        for (final ArrayDeque<Waiting> queue : waiting)
        {
            for (final Waiting entry : queue)
            {
                if (entry.seenVersion == version)
                {
                    continue;
                }
                if (first == null)
                {
                    first = entry;
                }
                if (now - entry.sinceNs >= starvationNs)
                {
                    if (starving == null || entry.order < starving.order)
                    {
                        starving = entry;
                    }
                }
                break; // within a class the queue is in arrival order: the first unseen one is its oldest
            }
        }
        return starving != null ? starving : first;
    }

    /** Every open channel of every connected peer, least loaded peer first, then lowest round trip. */
    private List<Channel> openChannels()
    {
        final List<Peer> order = new ArrayList<>(peers.values());
        order.sort((a, b) ->
        {
            final long loadA = (long)a.inFlight * Math.max(1, b.channels);
            final long loadB = (long)b.inFlight * Math.max(1, a.channels);
            if (loadA != loadB)
            {
                return Long.compare(loadA, loadB);
            }
            return a.rttNs != b.rttNs ? Long.compare(a.rttNs, b.rttNs) : Integer.compare(a.nodeId, b.nodeId);
        });
        final List<Channel> open = new ArrayList<>();
        for (final Peer peer : order)
        {
            for (int i = 0; i < peer.channels; i++)
            {
                if (!peer.busy[i])
                {
                    open.add(new Channel(peer.nodeId, i));
                }
            }
        }
        return open;
    }
}
