package io.troupe.interconnect;

/**
 * Receives the directory updates peers send ({@link Interconnect#sendDirectoryUpdate}): the service directory's
 * hook into the control stream.
 */
@FunctionalInterface
public interface DirectoryListener
{
    /**
     * A verified update. Called on the interconnect's thread, in the order the peer sent them: hand it on (e.g. as
     * an event to an actor) and return; do not block. What it throws is logged and counted.
     *
     * @param update the update.
     */
    void onDirectoryUpdate(DirectoryUpdate update);
}
