package io.troupe.actor.internal.layout;

/**
 * 128 bytes ahead of a subclass's fields, so that no other object shares a cache line (or the adjacent line a
 * prefetcher pairs with it) with them. For the runtime's shared objects that every worker reads on each event
 * (router, dispatcher, pool, mailbox table): a collection copies objects next to whatever referred to them, and a
 * busy actor's mailbox, written by one worker on every event, could otherwise land on the line another worker reads
 * on every event, which halves 4-pair ping-pong for the life of the process. The subclass puts 128 bytes of its own
 * after its fields (a class between this one and the final class holds the fields, the final class the padding).
 */
public abstract class LinePadding
{
    /** Fills the 4-byte hole after the object header, where the JVM would otherwise put a subclass field. */
    int holeFill;
    long p00;
    long p01;
    long p02;
    long p03;
    long p04;
    long p05;
    long p06;
    long p07;
    long p08;
    long p09;
    long p10;
    long p11;
    long p12;
    long p13;
    long p14;
    long p15;

    /** For subclasses. */
    protected LinePadding()
    {
    }
}
