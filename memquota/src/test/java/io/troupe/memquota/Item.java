package io.troupe.memquota;

/** A queue element with a fixed nominal cost. */
record Item(String name, long memoryCost) implements HasMemoryCost
{
}
