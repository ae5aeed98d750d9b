package io.troupe.interconnect.scheduler;

/**
 * Waits for the responses to requests sent through an {@link Offer}. For each request exactly one callback is
 * called, exactly once, on the scheduler's thread, unless the receiver was withdrawn first
 * ({@link PeerScheduler#withdraw(Receiver)}). The request id lets one receiver serve many requests.
 */
public interface Receiver
{
    /**
     * The response arrived.
     *
     * @param requestId the id {@link Offer#request} returned.
     * @param response  the response event.
     */
    void onSuccess(long requestId, Object response);

    /**
     * No response will come.
     *
     * @param requestId the id {@link Offer#request} returned.
     * @param reason    why.
     */
    void onFailure(long requestId, RequestFailure reason);
}
