package io.troupe.node;

import io.troupe.interconnect.scheduler.SchedulerConfig;

import java.time.Duration;

/** Reads {@code troupe.scheduler}, the peer request scheduler's section of a node config. Stateless. */
final class SchedulerConfigMapper
{
    static final String SCHEDULER_CHANNELS = "troupe.scheduler.channels-per-peer";
    static final String SCHEDULER_MAX_IN_FLIGHT = "troupe.scheduler.max-in-flight";
    static final String SCHEDULER_STARVATION_AGE = "troupe.scheduler.starvation-age";
    static final String SCHEDULER_MAX_WAITING = "troupe.scheduler.max-waiting-senders";

    private SchedulerConfigMapper()
    {
    }

    /** {@code troupe.scheduler}: each value checked by {@link io.troupe.interconnect.scheduler.SchedulerConfig}. */
    static NodeConfig.SchedulerSettings read(final ConfigReader in)
    {
        final SchedulerConfig check = new SchedulerConfig();
        final int channels = in.integer(SCHEDULER_CHANNELS);
        final int maxInFlight = in.integer(SCHEDULER_MAX_IN_FLIGHT);
        final Duration starvationAge = in.duration(SCHEDULER_STARVATION_AGE);
        final int maxWaiting = in.integer(SCHEDULER_MAX_WAITING);
        String key = SCHEDULER_CHANNELS;
        try
        {
            check.channelsPerPeer(channels);
            key = SCHEDULER_MAX_IN_FLIGHT;
            check.maxInFlight(maxInFlight);
            key = SCHEDULER_STARVATION_AGE;
            check.starvationAge(starvationAge);
            key = SCHEDULER_MAX_WAITING;
            check.maxWaitingSenders(maxWaiting);
        }
        catch (final IllegalArgumentException ex)
        {
            throw in.invalid(key, ex.getMessage(), ex);
        }
        return new NodeConfig.SchedulerSettings(channels, maxInFlight, starvationAge, maxWaiting);
    }
}
