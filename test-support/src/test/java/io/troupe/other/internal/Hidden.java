package io.troupe.other.internal;

/** Stands for another module's internal class, for ArchitectureRulesTest. */
public final class Hidden
{
}
