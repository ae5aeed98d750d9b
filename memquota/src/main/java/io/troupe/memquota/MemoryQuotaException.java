package io.troupe.memquota;

/** Base of the memory quota's errors. Each subtype says what failed and what the caller can do. */
public class MemoryQuotaException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what happened.
     */
    public MemoryQuotaException(final String message)
    {
        super(message);
    }

    /**
     * Creates the exception, optionally without a stack trace.
     *
     * @param message   what happened.
     * @param withTrace whether to fill in the stack trace.
     */
    protected MemoryQuotaException(final String message, final boolean withTrace)
    {
        super(message, null, false, withTrace);
    }

    /**
     * Use is past the hard cap and reclamation has not brought it down yet: the claim was refused, nothing was
     * claimed.
     * Transient: back off, or shed the work. Thrown without a stack trace (overload must stay cheap).
     */
    public static final class QuotaExhausted extends MemoryQuotaException
    {
        private static final long serialVersionUID = 1L;

        /**
         * Creates the exception.
         */
        public QuotaExhausted()
        {
            super("memory quota exhausted: use is past the hard cap while the oldest data is being reclaimed; " +
                "retry later or shed the work", false);
        }
    }

    /** The tracker was shut down: no memory can be claimed any more. */
    public static final class TrackerShutDown extends MemoryQuotaException
    {
        private static final long serialVersionUID = 1L;

        /**
         * Creates the exception.
         */
        public TrackerShutDown()
        {
            super("memory quota tracker is shut down; nothing can claim memory any more");
        }
    }

    /** The account was closed (its last handle closed): its participants can no longer claim. */
    public static final class AccountClosed extends MemoryQuotaException
    {
        private static final long serialVersionUID = 1L;

        /**
         * Creates the exception.
         *
         * @param accountId the account.
         */
        public AccountClosed(final long accountId)
        {
            super("memory account " + accountId + " is closed; open a new account to claim memory");
        }
    }

    /** The participant was forgotten by the tracker: reclaimed (collapsed), garbage-collected or closed. */
    public static final class ParticipantGone extends MemoryQuotaException
    {
        private static final long serialVersionUID = 1L;

        /**
         * Creates the exception.
         *
         * @param accountId     the account.
         * @param participantId the participant.
         */
        public ParticipantGone(final long accountId, final long participantId)
        {
            super("participant " + participantId + " of memory account " + accountId +
                " was reclaimed or closed; its data is gone and it must be recreated");
        }
    }
}
