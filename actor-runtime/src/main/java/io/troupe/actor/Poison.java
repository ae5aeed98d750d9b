package io.troupe.actor;

/**
 * Asks an actor to pass away. Nobody can kill an actor from outside: the actor receives this like any event and
 * decides (a typed actor that does not handle it keeps running, and the event is counted as unhandled);
 * well-behaved actors call {@link ActorContext#passAway()}. To stop an actor regardless, its parent calls
 * {@link ActorContext#stop} or its node's system {@link ActorSystem#stop}: neither goes over the wire.
 */
public final class Poison
{
    /** The one instance. */
    public static final Poison INSTANCE = new Poison();
    /** Type id of the poison event, in the system space. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_SYSTEM, 2);

    private Poison()
    {
    }

    @Override
    public String toString()
    {
        return "Poison";
    }
}
