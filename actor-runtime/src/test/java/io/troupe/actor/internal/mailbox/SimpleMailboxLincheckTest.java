package io.troupe.actor.internal.mailbox;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link SimpleMailbox} (Vyukov's intrusive MPSC list) is a linearizable FIFO queue for many senders and one
 * reader: Lincheck's model checker explores interleavings of three threads that send, one of which also reads,
 * and the stress run repeats the same kind of scenarios on real threads. See {@link MailboxQueueOperations} for the
 * operations and why the reader retries a null poll while a send is in flight.
 */
@Timeout(120)
class SimpleMailboxLincheckTest
{
    @Test
    void modelChecking()
    {
        MailboxQueueOperations.modelChecking().check(Operations.class);
    }

    @Test
    void stress()
    {
        MailboxQueueOperations.stress().check(Operations.class);
    }

    /** The operations on a fresh mailbox. */
    public static final class Operations extends MailboxQueueOperations
    {
        /** A fresh, empty mailbox. */
        public Operations()
        {
            super(new SimpleMailbox(1, 0));
        }
    }
}
