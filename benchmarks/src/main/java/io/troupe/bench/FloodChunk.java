package io.troupe.bench;

import io.troupe.memquota.HasMemoryCost;

/** One element of {@code memquota.flood}: 1 KiB of payload, costed at the payload plus an object header. */
final class FloodChunk implements HasMemoryCost
{
    /** Payload bytes per element. */
    static final int PAYLOAD_BYTES = 1024;
    /** Nominal cost of one element: the payload plus 16 bytes for the array's header. */
    static final long COST_BYTES = PAYLOAD_BYTES + 16;

    final byte[] payload = new byte[PAYLOAD_BYTES];

    @Override
    public long memoryCost()
    {
        return COST_BYTES;
    }
}
