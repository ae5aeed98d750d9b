package io.troupe.interconnect.scheduler;

import io.troupe.actor.ActorId;
import io.troupe.actor.ServiceId;
import io.troupe.interconnect.scheduler.SchedulerCounters.Counter;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The scheduler's rules, one call at a time, with a fake clock and fake peers (no actor, no network). */
class SchedulerCoreTest
{
    private static final Duration TIMEOUT = Duration.ofMillis(100);

    private long now = 1_000_000_000L;
    private final List<Sent> sent = new ArrayList<>();
    private final SchedulerCounters counters = new SchedulerCounters();

    private record Sent(ActorId target, Object event, long requestId, boolean tracked)
    {
    }

    /** A receiver that records every call. */
    private static final class Calls implements Receiver
    {
        final Map<Long, List<String>> calls = new HashMap<>();

        @Override
        public void onSuccess(final long requestId, final Object response)
        {
            calls.computeIfAbsent(requestId, id -> new ArrayList<>()).add("ok:" + response);
        }

        @Override
        public void onFailure(final long requestId, final RequestFailure reason)
        {
            calls.computeIfAbsent(requestId, id -> new ArrayList<>()).add(reason.name());
        }

        List<String> of(final long requestId)
        {
            return calls.getOrDefault(requestId, List.of());
        }
    }

    /** A sender that records its offers and acts on each with a given step. */
    private static final class Recording implements Sender
    {
        final List<List<Channel>> offers = new ArrayList<>();
        final List<Integer> sizes = new ArrayList<>();
        final Consumer<Offer> step;
        boolean discarded;

        Recording(final Consumer<Offer> step)
        {
            this.step = step;
        }

        @Override
        public void onOffer(final Offer offer)
        {
            offers.add(List.copyOf(offer.channels()));
            sizes.add(offer.size());
            step.accept(offer);
        }

        @Override
        public void onDiscard()
        {
            discarded = true;
        }
    }

    private SchedulerCore core(final SchedulerConfig config)
    {
        return new SchedulerCore(config, () -> now, (target, event, id, tracked) ->
            sent.add(new Sent(target, event, id, tracked)), counters);
    }

    private static ActorId service(final int node)
    {
        return ServiceId.of(node, "chunks");
    }

    /** A step that sends one request on the offer's first channel. */
    private static Consumer<Offer> requestOne(final Receiver receiver, final List<Long> ids)
    {
        return offer ->
        {
            final Channel channel = offer.channels().get(0);
            ids.add(offer.request(channel, service(channel.nodeId()), "get", TIMEOUT, receiver));
        };
    }

    /** A step that sends a request on every channel it may, in the offer's order. */
    private static Consumer<Offer> requestEvery(final Receiver receiver, final List<Long> ids)
    {
        return offer ->
        {
            for (final Channel channel : offer.channels())
            {
                if (offer.remaining() == 0)
                {
                    return;
                }
                ids.add(offer.request(channel, service(channel.nodeId()), "get", TIMEOUT, receiver));
            }
        };
    }

    @Test
    void aLoneSenderMayCloseEveryOpenChannelAndOneOfSeveralOnlyOne()
    {
        final SchedulerCore core = core(new SchedulerConfig().channelsPerPeer(2));
        core.peerUp(2);
        core.peerUp(3);
        final Recording alone = new Recording(offer -> { });
        core.schedule(alone, Priority.NORMAL);
        assertThat(alone.offers).hasSize(1);
        assertThat(alone.offers.get(0)).hasSize(4);
        assertThat(alone.sizes.get(0)).isEqualTo(4);

        final Recording second = new Recording(offer -> { });
        core.schedule(second, Priority.NORMAL);
        // two wait now: the newcomer is offered the same 4 channels, of which it may close 1
        assertThat(second.sizes).containsExactly(1);
        assertThat(second.offers.get(0)).hasSize(4);
    }

    @Test
    void aSenderThatClosesEverythingItMayLeavesTheQueueAndTheChannelsStayClosedUntilTheResponse()
    {
        final SchedulerCore core = core(new SchedulerConfig().channelsPerPeer(2));
        core.peerUp(2);
        final Calls calls = new Calls();
        final List<Long> ids = new ArrayList<>();
        core.schedule(new Recording(requestEvery(calls, ids)), Priority.NORMAL);
        assertThat(ids).containsExactly(1L, 2L);
        assertThat(sent).extracting(Sent::requestId).containsExactly(1L, 2L);
        assertThat(sent).allMatch(Sent::tracked);
        assertThat(core.waitingCount()).isZero();
        assertThat(core.inFlightCount()).isEqualTo(2);

        final Recording later = new Recording(offer -> { });
        core.schedule(later, Priority.NORMAL);
        assertThat(later.offers).isEmpty(); // nothing is open

        core.onResponse(2, 2, "chunk-b");
        assertThat(calls.of(2)).containsExactly("ok:chunk-b");
        assertThat(later.offers).containsExactly(List.of(new Channel(2, 1)));
        assertThat(counters.get(Counter.RESPONSES)).isEqualTo(1);
    }

    @Test
    void aSenderThatClosesNothingKeepsItsPlaceAndSeesADifferentOfferWhenAChannelOpens()
    {
        final SchedulerCore core = core(new SchedulerConfig().channelsPerPeer(1));
        core.peerUp(2);
        core.peerUp(3);
        final Calls calls = new Calls();
        final List<Long> ids = new ArrayList<>();
        // wants node 3 only
        final Recording picky = new Recording(offer ->
        {
            for (final Channel channel : offer.channels())
            {
                if (channel.nodeId() == 3 && offer.remaining() > 0)
                {
                    ids.add(offer.request(channel, service(3), "get", TIMEOUT, calls));
                }
            }
        });
        final Recording any = new Recording(requestOne(calls, ids));
        // node 3 busy first: the any-sender takes it while alone
        core.schedule(new Recording(offer -> ids.add(
            offer.request(new Channel(3, 0), service(3), "x", TIMEOUT, calls))), Priority.NORMAL);
        core.schedule(picky, Priority.NORMAL);
        assertThat(picky.offers).containsExactly(List.of(new Channel(2, 0))); // declined, stays first
        core.schedule(any, Priority.NORMAL);
        // picky has seen this set, so the any-sender gets it
        assertThat(any.offers).containsExactly(List.of(new Channel(2, 0)));
        assertThat(core.waitingCount()).isEqualTo(1);
        core.onResponse(ids.get(0), 3, "done"); // node 3's channel opens: a different set
        assertThat(picky.offers).hasSize(2);
        assertThat(picky.offers.get(1)).containsExactly(new Channel(3, 0));
        assertThat(core.waitingCount()).isZero();
    }

    @Test
    void highBeforeNormalBeforeLowFirstComeFirstServedWithinAClass()
    {
        final SchedulerCore core = core(new SchedulerConfig().channelsPerPeer(1));
        final List<String> order = new ArrayList<>();
        final Calls calls = new Calls();
        final List<Long> ids = new ArrayList<>();
        for (final String name : List.of("low-1", "normal-1", "high-1", "low-2", "high-2", "normal-2"))
        {
            final Priority priority = Priority.valueOf(name.substring(0, name.indexOf('-')).toUpperCase());
            core.schedule(new Recording(offer ->
            {
                order.add(name);
                requestOne(calls, ids).accept(offer);
            }), priority);
        }
        core.peerUp(2); // one channel: one offer at a time
        for (int i = 0; i < 5; i++)
        {
            core.onResponse(ids.get(i), 2, "r");
        }
        assertThat(order).containsExactly("high-1", "high-2", "normal-1", "normal-2", "low-1", "low-2");
    }

    @Test
    void aSenderThatWaitedTheStarvationAgeGoesBeforeEveryClass()
    {
        final SchedulerCore core = core(new SchedulerConfig().channelsPerPeer(1).starvationAge(Duration.ofMillis(50)));
        final List<String> order = new ArrayList<>();
        final Calls calls = new Calls();
        final List<Long> ids = new ArrayList<>();
        core.peerUp(2);
        core.schedule(new Recording(requestOne(calls, ids)), Priority.HIGH); // takes the channel
        core.schedule(new Recording(offer ->
        {
            order.add("low");
            requestOne(calls, ids).accept(offer);
        }), Priority.LOW);
        now += Duration.ofMillis(60).toNanos();
        core.schedule(new Recording(offer ->
        {
            order.add("high");
            requestOne(calls, ids).accept(offer);
        }), Priority.HIGH);
        core.onResponse(ids.get(0), 2, "r");
        assertThat(order).containsExactly("low");
        core.onResponse(ids.get(1), 2, "r");
        assertThat(order).containsExactly("low", "high");
    }

    @Test
    void noOfferEverHoldsTheChannelOfAPeerThatWentDown()
    {
        final SchedulerCore core = core(new SchedulerConfig().channelsPerPeer(2));
        core.peerUp(2);
        core.peerUp(3);
        core.peerDown(3);
        final Recording sender = new Recording(offer -> { });
        core.schedule(sender, Priority.NORMAL);
        assertThat(sender.offers.get(0)).extracting(Channel::nodeId).containsOnly(2);
        core.peerDown(2);
        core.schedule(new Recording(offer -> { }), Priority.NORMAL);
        assertThat(sender.offers).hasSize(1); // no peer, no offer at all
        core.peerUp(3);
        assertThat(sender.offers.get(1)).extracting(Channel::nodeId).containsOnly(3);
    }

    @Test
    void eachRequestEndsExactlyOnceWhateverComesFirstAndLateResponsesAreCountedAndDropped()
    {
        final SchedulerCore core = core(new SchedulerConfig().channelsPerPeer(4));
        core.peerUp(2);
        final Calls calls = new Calls();
        final List<Long> ids = new ArrayList<>();
        core.schedule(new Recording(requestEvery(calls, ids)), Priority.NORMAL);
        // 1: response, then its timeout passes, then a duplicate
        core.onResponse(ids.get(0), 2, "one");
        // 2: timeout first, then the response
        now += TIMEOUT.toNanos();
        core.onResponse(ids.get(0), 2, "one again");
        core.onTick();
        core.onResponse(ids.get(1), 2, "two, late");
        assertThat(calls.of(ids.get(0))).containsExactly("ok:one");
        assertThat(calls.of(ids.get(1))).containsExactly("TIMEOUT");
        assertThat(calls.of(ids.get(2))).containsExactly("TIMEOUT");
        assertThat(counters.get(Counter.LATE_RESPONSES)).isEqualTo(2);
        assertThat(counters.get(Counter.TIMEOUTS)).isEqualTo(3);
        assertThat(core.inFlightCount()).isZero();
    }

    @Test
    void aDisconnectFailsThePeersRequestsOnceAndWhatFollowsIsIgnored()
    {
        final SchedulerCore core = core(new SchedulerConfig().channelsPerPeer(2));
        core.peerUp(2);
        core.peerUp(3);
        final Calls calls = new Calls();
        final List<Long> ids = new ArrayList<>();
        core.schedule(new Recording(requestEvery(calls, ids)), Priority.NORMAL);
        assertThat(ids).hasSize(4);
        core.peerDown(3);
        final List<Long> toThree = new ArrayList<>();
        for (int i = 0; i < sent.size(); i++)
        {
            if (sent.get(i).target().nodeId() == 3)
            {
                toThree.add(sent.get(i).requestId());
            }
        }
        for (final long id : toThree)
        {
            assertThat(calls.of(id)).containsExactly("DISCONNECTED");
            core.onUndelivered(id, true); // the interconnect's own report comes after
            core.onResponse(id, 3, "too late");
        }
        now += TIMEOUT.toNanos();
        core.onTick();
        for (final long id : toThree)
        {
            assertThat(calls.of(id)).containsExactly("DISCONNECTED");
        }
        assertThat(counters.get(Counter.DISCONNECT_FAILURES)).isEqualTo(2);
        assertThat(counters.get(Counter.TIMEOUTS)).isEqualTo(2); // node 2's, which stayed up
    }

    @Test
    void anUndeliveredRequestFailsAndOpensItsChannel()
    {
        final SchedulerCore core = core(new SchedulerConfig().channelsPerPeer(1));
        core.peerUp(2);
        final Calls calls = new Calls();
        final List<Long> ids = new ArrayList<>();
        core.schedule(new Recording(requestOne(calls, ids)), Priority.NORMAL);
        core.onUndelivered(ids.get(0), false);
        assertThat(calls.of(ids.get(0))).containsExactly("UNDELIVERED");
        assertThat(core.isOpen(new Channel(2, 0))).isTrue();
        assertThat(counters.get(Counter.UNDELIVERED_FAILURES)).isEqualTo(1);
    }

    @Test
    void aResponseFromAnotherNodeIsStrayAndTheRequestWaitsOn()
    {
        final SchedulerCore core = core(new SchedulerConfig().channelsPerPeer(1));
        core.peerUp(2);
        final Calls calls = new Calls();
        final List<Long> ids = new ArrayList<>();
        core.schedule(new Recording(requestOne(calls, ids)), Priority.NORMAL);
        core.onResponse(ids.get(0), 7, "forged");
        assertThat(calls.of(ids.get(0))).isEmpty();
        assertThat(counters.get(Counter.STRAY_RESPONSES)).isEqualTo(1);
        core.onResponse(ids.get(0), 2, "real");
        assertThat(calls.of(ids.get(0))).containsExactly("ok:real");
    }

    @Test
    void withdrawnSendersAndReceiversAreNeverCalledAndACancelFailsOnce()
    {
        final SchedulerCore core = core(new SchedulerConfig().channelsPerPeer(1));
        final Recording waiting = new Recording(offer -> { });
        core.schedule(waiting, Priority.NORMAL);
        assertThat(core.withdraw(waiting)).isTrue();
        assertThat(core.withdraw(waiting)).isFalse();
        core.peerUp(2);
        assertThat(waiting.offers).isEmpty();

        final Calls calls = new Calls();
        final List<Long> ids = new ArrayList<>();
        core.schedule(new Recording(requestOne(calls, ids)), Priority.NORMAL);
        assertThat(core.withdraw(calls)).isTrue();
        core.onResponse(ids.get(0), 2, "nobody hears this");
        assertThat(calls.calls).isEmpty();
        assertThat(core.isOpen(new Channel(2, 0))).isTrue(); // the response opened it

        core.schedule(new Recording(requestOne(calls, ids)), Priority.NORMAL);
        assertThat(core.cancel(ids.get(1))).isTrue();
        assertThat(core.cancel(ids.get(1))).isFalse();
        assertThat(calls.of(ids.get(1))).containsExactly("WITHDRAWN");
        assertThat(core.isOpen(new Channel(2, 0))).isFalse(); // closed until answered or timed out
        now += TIMEOUT.toNanos();
        core.onTick();
        assertThat(calls.of(ids.get(1))).containsExactly("WITHDRAWN");
        assertThat(core.isOpen(new Channel(2, 0))).isTrue();
    }

    @Test
    void stopFailsEveryReceiverDiscardsEverySenderAndRefusesNewOnes()
    {
        final SchedulerCore core = core(new SchedulerConfig().channelsPerPeer(1));
        core.peerUp(2);
        final Calls calls = new Calls();
        final List<Long> ids = new ArrayList<>();
        core.schedule(new Recording(requestOne(calls, ids)), Priority.NORMAL);
        final Recording waiting = new Recording(offer -> { });
        core.schedule(waiting, Priority.LOW);
        core.stop();
        assertThat(calls.of(ids.get(0))).containsExactly("SHUTDOWN");
        assertThat(waiting.discarded).isTrue();
        final Recording late = new Recording(offer -> { });
        core.schedule(late, Priority.HIGH);
        assertThat(late.discarded).isTrue();
        core.onResponse(ids.get(0), 2, "after the stop");
        assertThat(calls.of(ids.get(0))).containsExactly("SHUTDOWN");
        core.peerUp(3);
        assertThat(late.offers).isEmpty();
    }

    @Test
    void theNodeWideCapBoundsWhatIsInFlightOverAllPeers()
    {
        final SchedulerCore core = core(new SchedulerConfig().channelsPerPeer(4).maxInFlight(3));
        core.peerUp(2);
        core.peerUp(3);
        final Calls calls = new Calls();
        final List<Long> ids = new ArrayList<>();
        final Recording greedy = new Recording(requestEvery(calls, ids));
        core.schedule(greedy, Priority.NORMAL);
        assertThat(greedy.sizes).containsExactly(3);
        assertThat(core.inFlightCount()).isEqualTo(3);
        final Recording next = new Recording(offer -> { });
        core.schedule(next, Priority.NORMAL);
        assertThat(next.offers).isEmpty();
        core.onResponse(ids.get(0), sent.get(0).target().nodeId(), "r");
        assertThat(next.sizes).containsExactly(1);
    }

    @Test
    void theOfferPutsTheLeastLoadedPeerFirst()
    {
        final SchedulerCore core = core(new SchedulerConfig().channelsPerPeer(2));
        core.peerUp(2);
        core.peerUp(3);
        final Calls calls = new Calls();
        final List<Long> ids = new ArrayList<>();
        core.schedule(new Recording(offer ->
            ids.add(offer.request(new Channel(2, 0), service(2), "get", TIMEOUT, calls))), Priority.NORMAL);
        final Recording sender = new Recording(offer -> { });
        core.schedule(sender, Priority.NORMAL);
        assertThat(sender.offers.get(0)).containsExactly(new Channel(3, 0), new Channel(3, 1), new Channel(2, 1));
    }

    @Test
    void aNotificationClosesItsChannelForItsTimeout()
    {
        final SchedulerCore core = core(new SchedulerConfig().channelsPerPeer(1));
        core.peerUp(2);
        core.schedule(new Recording(offer -> offer.notify(new Channel(2, 0), service(2), "note", TIMEOUT)),
            Priority.NORMAL);
        assertThat(sent).hasSize(1);
        assertThat(sent.get(0).tracked()).isFalse();
        assertThat(core.isOpen(new Channel(2, 0))).isFalse();
        now += TIMEOUT.toNanos() - 1;
        core.onTick();
        assertThat(core.isOpen(new Channel(2, 0))).isFalse();
        now += 1;
        core.onTick();
        assertThat(core.isOpen(new Channel(2, 0))).isTrue();
        assertThat(counters.get(Counter.NOTIFICATIONS)).isEqualTo(1);
    }

    @Test
    void anOfferIsCheckedAndVoidAfterItsCall()
    {
        final SchedulerCore core = core(new SchedulerConfig().channelsPerPeer(2));
        core.peerUp(2);
        final Calls calls = new Calls();
        final Offer[] kept = new Offer[1];
        final List<Throwable> errors = new ArrayList<>();
        core.schedule(new Recording(offer ->
        {
            kept[0] = offer;
            errors.add(catching(() -> offer.request(new Channel(3, 0), service(3), "x", TIMEOUT, calls)));
            errors.add(catching(() -> offer.request(new Channel(2, 0), service(3), "x", TIMEOUT, calls)));
            errors.add(catching(() -> offer.request(new Channel(2, 0), service(2), "x", Duration.ZERO, calls)));
        }), Priority.NORMAL);
        assertThat(errors).allMatch(e -> e instanceof IllegalArgumentException);
        assertThatThrownBy(() -> kept[0].request(new Channel(2, 0), service(2), "x", TIMEOUT, calls))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("onOffer");
        core.schedule(new Recording(offer -> { }), Priority.NORMAL); // a second waiter: offers of size 1
        final List<Throwable> overuse = new ArrayList<>();
        core.schedule(new Recording(offer ->
        {
            offer.request(offer.channels().get(0), service(2), "x", TIMEOUT, calls);
            overuse.add(catching(() -> offer.request(offer.channels().get(1), service(2), "y", TIMEOUT, calls)));
        }), Priority.HIGH);
        assertThat(overuse).singleElement().isInstanceOf(IllegalStateException.class);
    }

    @Test
    void channelsSetAtRunTimeGrowAndShrinkAPeersShare()
    {
        final SchedulerCore core = core(new SchedulerConfig().channelsPerPeer(2));
        core.peerUp(2);
        final Recording sender = new Recording(offer -> { });
        core.schedule(sender, Priority.NORMAL);
        assertThat(sender.offers.get(0)).hasSize(2);
        core.channels(2, 3);
        assertThat(sender.offers.get(1)).hasSize(3);
        core.channels(2, 1);
        core.withdraw(sender);
        final Recording after = new Recording(offer -> { });
        core.schedule(after, Priority.NORMAL);
        assertThat(after.offers.get(0)).containsExactly(new Channel(2, 0));
        core.channels(4, 0); // not connected yet: applies when it connects
        core.peerUp(4);
        assertThat(after.offers).hasSize(1);
    }

    @Test
    void sendersBeyondTheLimitAreDiscardedAndCounted()
    {
        final SchedulerCore core = core(new SchedulerConfig().maxWaitingSenders(2));
        final Recording a = new Recording(offer -> { });
        final Recording b = new Recording(offer -> { });
        final Recording c = new Recording(offer -> { });
        core.schedule(a, Priority.NORMAL);
        core.schedule(b, Priority.NORMAL);
        core.schedule(c, Priority.NORMAL);
        assertThat(c.discarded).isTrue();
        assertThat(a.discarded || b.discarded).isFalse();
        assertThat(counters.get(Counter.SENDERS_DISCARDED)).isEqualTo(1);
        assertThat(counters.get(Counter.WAITING_SENDERS)).isEqualTo(2);
    }

    @Test
    void eightEqualSendersShareTheChannelsEvenly()
    {
        final SchedulerCore core = core(new SchedulerConfig().channelsPerPeer(2).maxInFlight(3));
        core.peerUp(2);
        core.peerUp(3);
        final Calls calls = new Calls();
        final int[] completed = new int[8];
        final Map<Long, Integer> owner = new HashMap<>();
        final Sender[] senders = new Sender[8];
        for (int i = 0; i < 8; i++)
        {
            final int index = i;
            senders[i] = offer ->
            {
                final Channel channel = offer.channels().get(0);
                owner.put(offer.request(channel, service(channel.nodeId()), "get", TIMEOUT, calls), index);
            };
            core.schedule(senders[i], Priority.NORMAL);
        }
        for (int round = 0; round < 800; round++)
        {
            final Sent oldest = sent.get(round);
            core.onResponse(oldest.requestId(), oldest.target().nodeId(), "r");
            final int who = owner.get(oldest.requestId());
            completed[who]++;
            core.schedule(senders[who], Priority.NORMAL); // each wants more at once
            assertThat(core.inFlightCount()).isLessThanOrEqualTo(3);
        }
        for (final int count : completed)
        {
            assertThat(count).isBetween(99, 101);
        }
    }

    @Test
    void aCallbackThatThrowsIsCountedAndTheSchedulerGoesOn()
    {
        final SchedulerCore core = core(new SchedulerConfig().channelsPerPeer(1));
        core.peerUp(2);
        core.schedule(new Recording(offer ->
        {
            throw new IllegalStateException("a broken sender");
        }), Priority.NORMAL);
        assertThat(counters.get(Counter.CALLBACK_ERRORS)).isEqualTo(1);
        assertThat(core.takeCallbackError()).hasMessage("a broken sender");
        final Calls calls = new Calls();
        final List<Long> ids = new ArrayList<>();
        core.schedule(new Recording(requestOne(calls, ids)), Priority.HIGH);
        assertThat(ids).hasSize(1);
    }

    private static Throwable catching(final Runnable action)
    {
        try
        {
            action.run();
            return null;
        }
        catch (final RuntimeException ex)
        {
            return ex;
        }
    }
}
