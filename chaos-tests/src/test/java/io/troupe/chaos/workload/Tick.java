package io.troupe.chaos.workload;

/**
 * One tracked event of the chaos workload.
 *
 * @param senderNode          the sending node.
 * @param senderIncarnation   its incarnation.
 * @param seq                 the sequence number, per (sender incarnation, recipient node), from 1.
 * @param receiverIncarnation the recipient node's incarnation as the sender knew it when it sent (0: not known).
 */
public record Tick(int senderNode, long senderIncarnation, long seq, long receiverIncarnation)
{
}
