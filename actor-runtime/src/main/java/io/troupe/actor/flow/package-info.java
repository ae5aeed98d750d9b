/**
 * Credit flow control: accounts that record how much work an external source has caused system-wide and
 * throttle the source while that debt is high.
 *
 * <p>Every envelope is charged to an account ({@link io.troupe.actor.flow.Chargeable}) with a cost. By default
 * a handler's sends are charged to the account of the event it handles, so all the fan-out an external input
 * causes is billed to that input's source; the cost is repaid, exactly once, when the recipient has handled
 * the event or the event leaves the node some other way (dropped, reported undelivered, collapsed, shut
 * down). An ingress actor calls {@link io.troupe.actor.ActorContext#ensureClearFunds} before it reads its
 * source and stops reading while in debt; a {@link io.troupe.actor.flow.FundsCleared} event tells it when to
 * resume. Nothing blocks a thread.
 */
package io.troupe.actor.flow;
