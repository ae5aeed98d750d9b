package io.troupe.interconnect.scheduler;

import java.time.Duration;

/**
 * The peer scheduler's settings. Defaults: 4 channels per peer, at most 256 messages in flight from the node to all
 * peers together, a waiting sender promoted ahead of every priority class after 200 ms, at most 65,536 senders
 * waiting (more are discarded and counted).
 */
public final class SchedulerConfig
{
    private int channelsPerPeer = SchedulerSettings.CHANNELS_PER_PEER.defaultValue();
    private int maxInFlight = SchedulerSettings.MAX_IN_FLIGHT.defaultValue();
    private Duration starvationAge = SchedulerSettings.STARVATION_AGE.defaultValue();
    private int maxWaitingSenders = SchedulerSettings.MAX_WAITING_SENDERS.defaultValue();

    /** Settings with the defaults above ({@link SchedulerSettings} declares them). */
    public SchedulerConfig()
    {
        // the defaults are the fields' initial values
    }

    /**
     * Channels each peer has unless set per peer at run time ({@link PeerScheduler#channels}).
     *
     * @param channels 1 to 65,536.
     * @return this.
     */
    public SchedulerConfig channelsPerPeer(final int channels)
    {
        this.channelsPerPeer = SchedulerSettings.CHANNELS_PER_PEER.requireValid(channels);
        return this;
    }

    /**
     * The node-wide cap: closed channels (messages in flight) over all peers together never exceed it, so that
     * senders that know nothing of each other are moderated together.
     *
     * @param max at least 1.
     * @return this.
     */
    public SchedulerConfig maxInFlight(final int max)
    {
        this.maxInFlight = SchedulerSettings.MAX_IN_FLIGHT.requireValid(max);
        return this;
    }

    /**
     * How long a sender may wait before it goes ahead of every priority class.
     *
     * @param age positive.
     * @return this.
     */
    public SchedulerConfig starvationAge(final Duration age)
    {
        this.starvationAge = SchedulerSettings.STARVATION_AGE.requireValid(age);
        return this;
    }

    /**
     * How many senders may wait at once; a sender scheduled beyond it is discarded at once ({@link Sender#onDiscard})
     * and counted.
     *
     * @param max at least 1.
     * @return this.
     */
    public SchedulerConfig maxWaitingSenders(final int max)
    {
        this.maxWaitingSenders = SchedulerSettings.MAX_WAITING_SENDERS.requireValid(max);
        return this;
    }

    /**
     * Channels per peer.
     *
     * @return the count.
     */
    public int channelsPerPeer()
    {
        return channelsPerPeer;
    }

    /**
     * The node-wide cap.
     *
     * @return the most messages in flight at once.
     */
    public int maxInFlight()
    {
        return maxInFlight;
    }

    /**
     * The starvation age.
     *
     * @return the wait after which a sender goes first.
     */
    public Duration starvationAge()
    {
        return starvationAge;
    }

    /**
     * The waiting limit.
     *
     * @return the most senders waiting at once.
     */
    public int maxWaitingSenders()
    {
        return maxWaitingSenders;
    }
}
