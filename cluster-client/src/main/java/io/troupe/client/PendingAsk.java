package io.troupe.client;

import io.troupe.actor.ActorId;

import java.util.concurrent.CompletableFuture;

/**
 * An ask waiting for its first outcome: the reply, an {@code Undelivered} notice, its timeout, or the loss of the
 * session it went out on. Made by the caller's thread, completed by the client's.
 */
final class PendingAsk
{
    final long id;
    final ActorId target;
    final int type;
    final long deadlineNs;
    /** What the reply must be, or null for any. */
    final Class<?> replyType;
    final CompletableFuture<Object> future = new CompletableFuture<>();
    /**
     * Set by the client's thread once the ask went out in a session: if that session is lost, the outcome is unsure.
     */
    volatile boolean sent;

    PendingAsk(final long id, final ActorId target, final int type, final long deadlineNs, final Class<?> replyType)
    {
        this.id = id;
        this.target = target;
        this.type = type;
        this.deadlineNs = deadlineNs;
        this.replyType = replyType;
    }
}
