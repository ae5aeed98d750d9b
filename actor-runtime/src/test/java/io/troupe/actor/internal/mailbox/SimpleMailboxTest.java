package io.troupe.actor.internal.mailbox;

import io.troupe.actor.MailboxType;

class SimpleMailboxTest extends MailboxContractTest
{
    @Override
    Mailbox newMailbox(final int hint, final int poolId)
    {
        return new SimpleMailbox(hint, poolId);
    }

    @Override
    MailboxType expectedType()
    {
        return MailboxType.SIMPLE;
    }
}
