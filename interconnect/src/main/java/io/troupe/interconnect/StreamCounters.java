package io.troupe.interconnect;

import org.agrona.concurrent.status.CountersReader;

/**
 * Finds the media driver's per-stream counters (sender position, receiver high-water mark, ...) in its counters:
 * a stream counter's key begins with the registration id of what it belongs to (a publication's, or an image's
 * correlation id).
 */
final class StreamCounters
{
    private StreamCounters()
    {
    }

    /**
     * The id of the counter of a type that belongs to a registration, or {@link CountersReader#NULL_COUNTER_ID}.
     * Scans every counter and allocates: call it once per publication or image, then {@link #belongs}.
     */
    static int find(final CountersReader counters, final int typeId, final long registrationId)
    {
        final int[] found = {CountersReader.NULL_COUNTER_ID};
        counters.forEach((counterId, type, key, label) ->
        {
            if (type == typeId && key.getLong(0) == registrationId)
            {
                found[0] = counterId;
            }
        });
        return found[0];
    }

    /** Whether a counter found before is still allocated, of the type, and of the registration (ids are reused). */
    static boolean belongs(final CountersReader counters, final int counterId, final int typeId,
        final long registrationId)
    {
        return counterId != CountersReader.NULL_COUNTER_ID &&
            counters.getCounterState(counterId) == CountersReader.RECORD_ALLOCATED &&
            counters.getCounterTypeId(counterId) == typeId &&
            counters.metaDataBuffer().getLong(CountersReader.metaDataOffset(counterId) + CountersReader.KEY_OFFSET) ==
                registrationId;
    }
}
