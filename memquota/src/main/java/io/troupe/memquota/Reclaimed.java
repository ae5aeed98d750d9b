package io.troupe.memquota;

/** A participant's answer to a reclamation request. */
public enum Reclaimed
{
    /** It is collapsing completely: the tracker forgets it and all memory it used, at once. */
    COLLAPSING,
    /** It freed some memory as asked; if that was not enough the tracker asks again. */
    PARTIAL
}
