package io.troupe.client;

import java.util.concurrent.atomic.AtomicLong;

/** What a {@link TroupeClient} counts; read from any thread ({@link TroupeClient#counters()}). */
public final class ClientCounters
{
    final AtomicLong sessions = new AtomicLong();
    final AtomicLong sessionsLost = new AtomicLong();
    final AtomicLong sent = new AtomicLong();
    final AtomicLong backPressured = new AtomicLong();
    final AtomicLong framesSent = new AtomicLong();
    final AtomicLong offersBackPressured = new AtomicLong();
    final AtomicLong replies = new AtomicLong();
    final AtomicLong lateReplies = new AtomicLong();
    final AtomicLong undelivered = new AtomicLong();
    final AtomicLong unsolicited = new AtomicLong();
    final AtomicLong endpointUpdates = new AtomicLong();
    final AtomicLong framesRejected = new AtomicLong();

    ClientCounters()
    {
    }

    /**
     * Sessions opened (the first, and one per failover).
     *
     * @return the count.
     */
    public long sessions()
    {
        return sessions.get();
    }

    /**
     * Sessions lost (the node went silent, said goodbye, or its stream broke).
     *
     * @return the count.
     */
    public long sessionsLost()
    {
        return sessionsLost.get();
    }

    /**
     * Sends and asks the send buffer took.
     *
     * @return the count.
     */
    public long sent()
    {
        return sent.get();
    }

    /**
     * Sends and asks refused for back pressure (the send buffer was full).
     *
     * @return the count.
     */
    public long backPressured()
    {
        return backPressured.get();
    }

    /**
     * Frames that went out to a node.
     *
     * @return the count.
     */
    public long framesSent()
    {
        return framesSent.get();
    }

    /**
     * Times the node's stream pushed back a message (the node was not reading this client).
     *
     * @return the count.
     */
    public long offersBackPressured()
    {
        return offersBackPressured.get();
    }

    /**
     * Replies that completed an ask.
     *
     * @return the count.
     */
    public long replies()
    {
        return replies.get();
    }

    /**
     * Replies that came after their ask ended (timed out or failed): dropped.
     *
     * @return the count.
     */
    public long lateReplies()
    {
        return lateReplies.get();
    }

    /**
     * Undelivered notices of sends (asks fail their own future instead).
     *
     * @return the count.
     */
    public long undelivered()
    {
        return undelivered.get();
    }

    /**
     * Events from the node that answered no ask and were no service notice: dropped.
     *
     * @return the count.
     */
    public long unsolicited()
    {
        return unsolicited.get();
    }

    /**
     * Changes of the cluster's endpoints the client learned from its node (members joined or gone).
     *
     * @return the count.
     */
    public long endpointUpdates()
    {
        return endpointUpdates.get();
    }

    /**
     * Messages or frames from the network that were not the session's or did not decode: dropped.
     *
     * @return the count.
     */
    public long framesRejected()
    {
        return framesRejected.get();
    }

    @Override
    public String toString()
    {
        return "ClientCounters[sessions " + sessions() + ", lost " + sessionsLost() + ", sent " + sent() +
            ", backPressured " + backPressured() + ", replies " + replies() + ", late " + lateReplies() +
            ", undelivered " + undelivered() + ", endpoint updates " + endpointUpdates() + ", rejected " +
            framesRejected() + ']';
    }
}
