package io.troupe.actor.internal.layout;

/**
 * 128 bytes ahead of a subclass's fields, so that no other object shares a cache line (or the adjacent line a
 * prefetcher pairs with it) with them. For the runtime's objects that workers read or write on every event: a
 * worker's own state and context, and the shared router, dispatcher, pool, mailbox table and run queues. A
 * collection copies objects next to whatever referred to them, and a busy actor's mailbox, written by one worker on
 * every event, could otherwise land on a line another worker reads on every event.
 *
 * <p>The 128 bytes behind the fields cannot be inherited: Java lays out a superclass's fields first, so the class
 * that holds the fields extends this one and the final class declares 16 longs of its own ({@code q00..q15}).
 * {@code PaddedLayoutTest} checks both sides on the running JVM.
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
