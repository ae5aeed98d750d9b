package io.troupe.actor;


/**
 * Tells an actor whose {@code ensureClearFunds} found the account in debt that its debt has fallen below the
 * threshold: it may resume reading its source. Sent once per wait, uncharged.
 *
 * @param accountId the account.
 * @param debt      its debt when the notice was sent.
 */
public record FundsCleared(long accountId, long debt)
{
    /** Type id of the event, in the system space. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_SYSTEM, 4);
}
