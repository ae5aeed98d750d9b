package io.troupe.broker;

/**
 * A valve that sizes a pool of workers with CoDel's control law applied to the relative time of their queue
 * (Erlang's {@code sregulator_codel_valve}, extended to shrink symmetrically). Below {@code min} it always
 * opens, at {@code max} never; in between it grows while the relative time stays below {@code target} and
 * shrinks while it stays at or above, each at CoDel's pace, so that a short burst changes nothing and a lasting
 * change is followed at an increasing rate.
 *
 * <p>Exactly:
 * <ul>
 *     <li><b>Runs.</b> Each {@link #update} is a sample, <em>below</em> ({@code relative < target}: workers
 *     do not wait long enough, too few of them) or <em>above</em> ({@code relative >= target}). A run is a
 *     sequence of samples on the same side; it starts at the time of its first sample. A sample on the other
 *     side starts a new run and ends the episode of the old side (below: the shrink episode; above: the growth
 *     episode).</li>
 *     <li><b>Growth</b> ({@link #tryOpen} with {@code min <= size < max}) is allowed when the current run is
 *     below, a sample arrived since the last growth or shrink step (one step per sample: a stale sample never
 *     lets a queue of requests through), and
 *     <ul>
 *         <li>outside a growth episode: the run started at least {@code interval} ago (the relative time has
 *         stayed below target, as sampled, for an interval). This first growth starts an episode;</li>
 *         <li>in a growth episode: at least {@code interval / sqrt(count)} passed since the previous growth.
 *         </li>
 *     </ul>
 *     {@code count} is set when an episode starts (below) and incremented by each further growth of the
 *     episode: without a resume, it is the number of growths of the episode so far, and the spacings are
 *     {@code interval}, {@code interval / sqrt(2)}, {@code interval / sqrt(3)}...</li>
 *     <li><b>Entering an episode</b> sets {@code count} as RFC 8289 does on entering its dropping state: with
 *     {@code delta} the final {@code count} of the previous episode of the same kind (growth or shrink) minus
 *     the {@code count} it started with, {@code count = delta} if {@code delta > 1} and that episode's next
 *     step was due less than {@code 16 * interval} ago (resume near the pace it had reached); else
 *     {@code count = 1}.</li>
 *     <li><b>Shrink</b> ({@link #keep} with {@code min < size <= max}) mirrors growth with above samples: the
 *     first release once the above run is {@code interval} old, the next ones {@code interval / sqrt(count)}
 *     apart, one per sample. A shrink releases the asking holder's slot ({@code keep} answers false), like a
 *     CoDel drop. Otherwise {@code keep} answers true.</li>
 *     <li>{@code keep} always releases above {@code max} (after a reconfiguration to a smaller one), without
 *     counting as a shrink step; it never releases at or below {@code min}.</li>
 *     <li>Spacing is measured from the time of the previous step, not from when it was due (RFC 8289 adds to
 *     the due time): holders and requests arrive when they do, and catching up would release or admit a burst
 *     at once.</li>
 *     <li>Opens below {@code min} are not growth steps and use no sample.</li>
 *     <li>{@link #nextOpenNs}: while the run is below, a sample is unused and {@code min <= size < max}, the
 *     time growth becomes due (the run's start plus {@code interval}, or the previous growth plus the spacing)
 *     if that is later than {@code nowNs}; else {@link Long#MAX_VALUE} (open now, or only an event can open
 *     it).</li>
 *     <li>Before the first update (also after a reconfiguration, which starts a fresh valve with the held
 *     slots) the relative time is unknown: the valve opens up to {@code min} only and shrinks only above
 *     {@code max}.</li>
 *     <li>A {@link #close} or {@link #keep} while no slot is held changes nothing (a keep answers false) and
 *     is counted by {@link #spuriousReleases()}.</li>
 * </ul>
 *
 * <p>Times must not go backwards. Owned by the regulator's actor: not thread-safe. Created by
 * {@link CodelValveSpec#newValve}.
 *
 * @see <a href="https://www.rfc-editor.org/rfc/rfc8289">RFC 8289, Controlled Delay Active Queue Management</a>
 */
final class CodelValve extends SlotValve
{
    private static final int UNKNOWN = 0;
    private static final int BELOW = 1;
    private static final int ABOVE = 2;

    private final long targetNs;
    private final long intervalNs;
    private final int min;
    private final int max;
    private final Episode growth;
    private final Episode shrink;
    private int side = UNKNOWN;
    private long runStartNs;
    private boolean sampleUnused;

    /**
     * A valve holding {@code heldSlots} slots, with no sample yet.
     *
     * @param spec      the configuration.
     * @param heldSlots slots already held, at least 0 (may exceed {@code max}).
     */
    CodelValve(final CodelValveSpec spec, final int heldSlots)
    {
        super(heldSlots);
        this.targetNs = spec.target().toNanos();
        this.intervalNs = spec.interval().toNanos();
        this.min = spec.min();
        this.max = spec.max();
        this.growth = new Episode(intervalNs);
        this.shrink = new Episode(intervalNs);
    }

    @Override
    public boolean wouldOpen(final long nowNs)
    {
        return size < min ||
            (size < max && side == BELOW && sampleUnused && growth.due(nowNs, runStartNs));
    }

    @Override
    public boolean tryOpen(final long nowNs)
    {
        if (size < min)
        {
            size++;
            return true;
        }
        if (size >= max || side != BELOW || !sampleUnused || !growth.due(nowNs, runStartNs))
        {
            return false;
        }
        growth.step(nowNs);
        sampleUnused = false;
        size++;
        return true;
    }

    @Override
    boolean releaseOnKeep(final long nowNs)
    {
        if (size > max)
        {
            return true;
        }
        if (size <= min || side != ABOVE || !sampleUnused || !shrink.due(nowNs, runStartNs))
        {
            return false;
        }
        shrink.step(nowNs); // a shrink step, spaced as CoDel spaces drops
        sampleUnused = false;
        return true;
    }

    @Override
    public void update(final long relativeTimeNs, final long nowNs)
    {
        final int sampleSide = relativeTimeNs < targetNs ? BELOW : ABOVE;
        if (sampleSide != side)
        {
            side = sampleSide;
            runStartNs = nowNs;
            (sampleSide == BELOW ? shrink : growth).end();
        }
        sampleUnused = true;
    }

    @Override
    public long nextOpenNs(final long nowNs)
    {
        if (size < min || size >= max || side != BELOW || !sampleUnused)
        {
            return Long.MAX_VALUE;
        }
        final long dueNs = growth.dueNs(runStartNs);
        return nowNs - dueNs < 0 ? dueNs : Long.MAX_VALUE;
    }

    @Override
    public String toString()
    {
        return "CodelValve{size=" + size + ", min=" + min + ", max=" + max + ", targetNs=" + targetNs +
            ", intervalNs=" + intervalNs + ", side=" + (side == UNKNOWN ? "unknown" : side == BELOW ? "below" :
            "above") + ", growth=" + growth + ", shrink=" + shrink + '}';
    }

    /** CoDel's dropping state for one direction: whether it is on, its count, and when its next step is due. */
    private static final class Episode
    {
        private final long intervalNs;
        private final long resumeWindowNs;
        private boolean active;
        private int count;
        private int countAtEntry;
        private long nextNs;

        Episode(final long intervalNs)
        {
            this.intervalNs = intervalNs;
            this.resumeWindowNs = intervalNs > Long.MAX_VALUE / 16 ? Long.MAX_VALUE : intervalNs * 16;
        }

        long dueNs(final long runStartNs)
        {
            return active ? nextNs : runStartNs + intervalNs;
        }

        boolean due(final long nowNs, final long runStartNs)
        {
            return nowNs - dueNs(runStartNs) >= 0;
        }

        void step(final long nowNs)
        {
            if (active)
            {
                count++;
            }
            else
            {
                // RFC 8289: resume near the previous episode's pace if it ended recently
                final int delta = count - countAtEntry;
                count = delta > 1 && nowNs - nextNs < resumeWindowNs ? delta : 1;
                countAtEntry = count;
                active = true;
            }
            nextNs = nowNs + ValveChecks.controlLawNs(intervalNs, count);
        }

        void end()
        {
            active = false;
        }

        @Override
        public String toString()
        {
            return active ? "{count=" + count + ", nextNs=" + nextNs + '}' : "off";
        }
    }
}
