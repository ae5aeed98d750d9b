package io.troupe.serialization.wire;

import io.troupe.serialization.internal.sbe.CreditDeltasDecoder;

/**
 * A received batch of credit deltas: net charges and repayments of foreign accounts, for their owner.
 */
public final class CreditDeltasFrame extends Frame
{
    private final CreditDeltasDecoder decoder = new CreditDeltasDecoder();

    CreditDeltasFrame()
    {
    }

    @Override
    void onWrap()
    {
        decoder.wrap(buffer, blockOffset, blockLength, version);
    }

    /**
     * The sender's incarnation.
     *
     * @return the value.
     */
    public long incarnation()
    {
        return decoder.incarnation();
    }

    /**
     * The sender's node id.
     *
     * @return the value.
     */
    public int nodeId()
    {
        return decoder.nodeId();
    }

    /**
     * Entries in the batch.
     *
     * @return the value.
     */
    public int count()
    {
        return groupCount;
    }

    /**
     * An entry's account owner node.
     *
     * @param index 0..count-1.
     * @return the node owning the account.
     */
    public int accountOwnerNode(final int index)
    {
        return buffer.getInt(entryOffset(index) + CreditDeltasDecoder.DeltasDecoder.accountOwnerNodeEncodingOffset(),
            ORDER);
    }

    /**
     * An entry's account id.
     *
     * @param index 0..count-1.
     * @return the account id on its owner node.
     */
    public long accountId(final int index)
    {
        return buffer.getLong(entryOffset(index) + CreditDeltasDecoder.DeltasDecoder.accountIdEncodingOffset(), ORDER);
    }

    /**
     * An entry's net delta: charges minus repayments since the last batch.
     *
     * @param index 0..count-1.
     * @return the delta.
     */
    public long delta(final int index)
    {
        return buffer.getLong(entryOffset(index) + CreditDeltasDecoder.DeltasDecoder.deltaEncodingOffset(), ORDER);
    }
}
