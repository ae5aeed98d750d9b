package io.troupe.interconnect.scheduler;

/**
 * A waiting sender's class: offers go to {@link #HIGH} before {@link #NORMAL} before {@link #LOW}, first come first
 * served within a class; a sender that has waited {@link SchedulerConfig#starvationAge} or longer goes before every
 * class, oldest first, so a lower class is never starved.
 */
public enum Priority
{
    /** Offered first. */
    HIGH,
    /** After every high sender. */
    NORMAL,
    /** Last, unless it has waited the starvation age. */
    LOW
}
