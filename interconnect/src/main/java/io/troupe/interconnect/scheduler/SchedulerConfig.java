package io.troupe.interconnect.scheduler;

import java.time.Duration;

/**
 * The peer scheduler's settings. Defaults: 4 channels per peer, at most 256 messages in flight from the node to all
 * peers together, a waiting sender promoted ahead of every priority class after 200 ms, at most 65,536 senders
 * waiting (more are discarded and counted).
 */
public final class SchedulerConfig
{
    private int channelsPerPeer = 4;
    private int maxInFlight = 256;
    private Duration starvationAge = Duration.ofMillis(200);
    private int maxWaitingSenders = 65_536;

    /** Settings with the defaults above. */
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
        if (channels < 1 || channels > 65_536)
        {
            throw new IllegalArgumentException("channels per peer must be 1 to 65536, got " + channels);
        }
        this.channelsPerPeer = channels;
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
        if (max < 1)
        {
            throw new IllegalArgumentException("max in flight must be at least 1, got " + max);
        }
        this.maxInFlight = max;
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
        if (age == null || age.isNegative() || age.isZero())
        {
            throw new IllegalArgumentException("starvation age must be positive, got " + age);
        }
        this.starvationAge = age;
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
        if (max < 1)
        {
            throw new IllegalArgumentException("max waiting senders must be at least 1, got " + max);
        }
        this.maxWaitingSenders = max;
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
