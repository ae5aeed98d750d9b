package io.troupe.serialization.wire;

import io.troupe.actor.ActorId;
import io.troupe.actor.ServiceId;

/**
 * One service registration in a directory update.
 *
 * @param service the service.
 * @param actor   the actor it maps to.
 * @param op      register or unregister.
 */
public record DirectoryEntry(ServiceId service, ActorId actor, DirectoryOp op)
{
}
