package io.troupe.actor.internal.mailbox;

import io.troupe.actor.MailboxType;

class RevolvingMailboxTest extends MailboxContractTest
{
    @Override
    Mailbox newMailbox(final int hint, final int poolId)
    {
        return new RevolvingMailbox(hint, poolId);
    }

    @Override
    MailboxType expectedType()
    {
        return MailboxType.REVOLVING;
    }
}
