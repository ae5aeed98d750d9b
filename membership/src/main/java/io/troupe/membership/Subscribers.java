package io.troupe.membership;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.membership.table.Member;

import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The actors of this node told of member changes: {@link MemberUp}, {@link MemberLeft} and {@link MemberDowned}, in
 * epoch order, sent from the membership's thread. At most {@link #MAX} subscribers; a subscriber that passed away
 * without unsubscribing costs a dead letter per change until it is unsubscribed.
 */
final class Subscribers
{
    /** The most subscribers at once. */
    static final int MAX = 4_096;

    private final Set<ActorId> subscribers = ConcurrentHashMap.newKeySet();
    private volatile ActorSystem system;

    /**
     * Where the events are sent from: the node's actor system, once it runs.
     *
     * @param actors the system.
     */
    void deliverFrom(final ActorSystem actors)
    {
        this.system = actors;
    }

    /**
     * Adds a subscriber and tells it, at once, of each member up now.
     *
     * @param subscriber the actor.
     * @param upNow      the members up now.
     * @throws IllegalStateException if there are {@link #MAX} subscribers, or no actor system yet.
     */
    void subscribe(final ActorId subscriber, final Collection<Member> upNow)
    {
        final ActorSystem actors = system;
        if (actors == null)
        {
            throw new IllegalStateException("the node's actor system is not running yet");
        }
        if (subscribers.size() >= MAX && !subscribers.contains(subscriber))
        {
            throw new IllegalStateException("the membership has its most subscribers, " + MAX);
        }
        if (subscribers.add(subscriber))
        {
            for (final Member member : upNow)
            {
                actors.send(subscriber, new MemberUp(member));
            }
        }
    }

    /**
     * Removes a subscriber.
     *
     * @param subscriber the actor.
     * @return whether it was one.
     */
    boolean unsubscribe(final ActorId subscriber)
    {
        return subscribers.remove(subscriber);
    }

    /**
     * Tells every subscriber of a change that is an event: up, left or downed.
     *
     * @param member the member's new state.
     */
    void publish(final Member member)
    {
        final ActorSystem actors = system;
        if (actors == null || subscribers.isEmpty())
        {
            return;
        }
        final Object event = switch (member.status())
        {
            case UP -> new MemberUp(member);
            case LEFT -> new MemberLeft(member);
            case DOWN -> new MemberDowned(member);
            default -> null;
        };
        if (event != null)
        {
            for (final ActorId subscriber : subscribers)
            {
                actors.send(subscriber, event);
            }
        }
    }
}
