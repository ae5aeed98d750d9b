package io.troupe.actor.internal.mailbox;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link RevolvingMailbox} (segmented MPSC array) is a linearizable FIFO queue for many senders and one reader.
 * The operations start one slot before the end of the first segment, so that the explored interleavings fill the
 * last slot of one segment, link the next (senders racing to create it, a sender overtaken by one that already
 * advanced the senders' segment hint), work inside it, and retire the used one (a sender that meets the RETIRED
 * marker and restarts from the reader's segment); a fresh mailbox would add nothing but the first segment's
 * creation. See {@link MailboxQueueOperations} for the operations and why the reader retries a null poll while a
 * send is in flight.
 */
@Timeout(120)
class RevolvingMailboxLincheckTest
{
    @Test
    void modelCheckingAcrossASegmentBoundary()
    {
        MailboxQueueOperations.modelChecking().check(AtSegmentEnd.class);
    }

    @Test
    void stressAcrossASegmentBoundary()
    {
        MailboxQueueOperations.stress().check(AtSegmentEnd.class);
    }

    /** The operations on an empty mailbox whose next send takes the last slot of the first segment. */
    public static final class AtSegmentEnd extends MailboxQueueOperations
    {
        /** An empty mailbox, {@code SEGMENT_SIZE - 1} sends along. */
        public AtSegmentEnd()
        {
            super(advanced(new RevolvingMailbox(1, 0), RevolvingMailbox.SEGMENT_SIZE - 1));
        }
    }
}
