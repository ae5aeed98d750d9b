package io.troupe.interconnect.scheduler;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;

/**
 * The senders waiting for offers: one first-come-first-served queue per {@link Priority}, and the rule for who is
 * offered next. Owned by the scheduler's thread.
 */
final class SenderQueue
{
    /** A sender in the queue. */
    static final class Waiting
    {
        final Sender sender;
        final int priority;
        final long order;
        final long sinceNs;
        /** The channel version it was last offered (it declined that set: it is offered again once it changes). */
        long seenVersion = -1;

        Waiting(final Sender sender, final int priority, final long order, final long sinceNs)
        {
            this.sender = sender;
            this.priority = priority;
            this.order = order;
            this.sinceNs = sinceNs;
        }
    }

    private final List<ArrayDeque<Waiting>> classes = new ArrayList<>();
    private final long starvationNs;
    private long order;
    private int size;

    SenderQueue(final long starvationNs)
    {
        this.starvationNs = starvationNs;
        for (int i = 0; i < Priority.values().length; i++)
        {
            classes.add(new ArrayDeque<>());
        }
    }

    int size()
    {
        return size;
    }

    void add(final Sender sender, final Priority priority, final long nowNs)
    {
        classes.get(priority.ordinal()).addLast(new Waiting(sender, priority.ordinal(), order++, nowNs));
        size++;
    }

    /** Takes every entry of the sender out; whether there was one. */
    boolean withdraw(final Sender sender)
    {
        boolean found = false;
        for (final ArrayDeque<Waiting> queue : classes)
        {
            final Iterator<Waiting> entries = queue.iterator();
            while (entries.hasNext())
            {
                if (entries.next().sender == sender)
                {
                    entries.remove();
                    size--;
                    found = true;
                }
            }
        }
        return found;
    }

    /** Takes one entry out (it sent through its offer); whether it was still queued. */
    boolean remove(final Waiting entry)
    {
        if (classes.get(entry.priority).remove(entry))
        {
            size--;
            return true;
        }
        return false;
    }

    /** Empties the queue, oldest class first, handing each sender to {@code discard}. */
    void drain(final Consumer<Sender> discard)
    {
        for (final ArrayDeque<Waiting> queue : classes)
        {
            Waiting entry;
            while ((entry = queue.pollFirst()) != null)
            {
                size--;
                discard.accept(entry.sender);
            }
        }
    }

    /**
     * The sender to offer to next among those that have not seen channel version {@code version}: the longest waiting
     * of those that starve (waited the starvation age or more), else the first of the highest class.
     *
     * @return the entry, or null if every waiting sender has seen this version.
     */
    Waiting next(final long nowNs, final long version)
    {
        Waiting starving = null;
        Waiting first = null;
        for (final ArrayDeque<Waiting> queue : classes)
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
                if (nowNs - entry.sinceNs >= starvationNs && (starving == null || entry.order < starving.order))
                {
                    starving = entry;
                }
                break; // within a class the queue is in arrival order: the first unseen one is its oldest
            }
        }
        return starving != null ? starving : first;
    }
}
