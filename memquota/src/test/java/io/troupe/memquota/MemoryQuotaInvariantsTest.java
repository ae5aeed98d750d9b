package io.troupe.memquota;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.statistics.Statistics;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Random sequences of account, participant, claim/release, close, clock and reclaim operations against one
 * tracker, checking the accounting invariants after every step.
 */
class MemoryQuotaInvariantsTest
{
    private static final long MAX = 1L << 20;

    /** One operation: its kind, and raw numbers it picks its targets and sizes from. */
    record Op(int kind, int pick, long size, int flag)
    {
    }

    @Provide
    Arbitrary<List<Op>> operations()
    {
        final Arbitrary<Op> op = Combinators.combine(
            Arbitraries.integers().between(0, 22).withDistribution(RandomDistribution.uniform()),
            Arbitraries.integers().between(0, 1_000).withDistribution(RandomDistribution.uniform()),
            Arbitraries.longs().between(0, 400_000).withDistribution(RandomDistribution.uniform()),
            Arbitraries.integers().between(0, 3)).as(Op::new);
        return op.list().ofMinSize(20).ofMaxSize(100);
    }

    @Property(tries = 200)
    void accountingInvariantsHold(@ForAll("operations") final List<Op> ops)
    {
        final ManualClock clock = new ManualClock();
        try (MemoryQuotaTracker tracker = MemoryQuotaTracker.create(MemoryQuotaConfig.of(MAX), clock))
        {
            final Model model = new Model(tracker, clock);
            for (final Op op : ops)
            {
                model.apply(op);
                model.check();
            }
        }
        // the generator must keep reaching reclamation, or the reclaim checks would pass vacuously
        Statistics.label("reclaim rounds").coverage(checker -> checker.check("asked participants").count(n -> n >= 5));
    }

    /** A participant under test and what it has claimed and not released. */
    static final class Held
    {
        final FakeParticipant participant;
        long outstanding;

        Held(final FakeParticipant participant)
        {
            this.participant = participant;
        }
    }

    /** The tracker under test and the handles the test holds. */
    static final class Model
    {
        final MemoryQuotaTracker tracker;
        final ManualClock clock;
        final List<Account> openAccounts = new ArrayList<>();
        final List<Held> all = new ArrayList<>();

        Model(final MemoryQuotaTracker tracker, final ManualClock clock)
        {
            this.tracker = tracker;
            this.clock = clock;
        }

        void apply(final Op op)
        {
            final int kind = op.kind();
            if (kind <= 1)
            {
                newAccount(op);
            }
            else if (kind <= 4)
            {
                register(op);
            }
            else if (kind <= 12)
            {
                claim(op);
            }
            else if (kind <= 15)
            {
                release(op);
            }
            else if (kind == 16)
            {
                closeParticipation(op);
            }
            else if (kind == 17)
            {
                closeAccount(op);
            }
            else if (kind <= 19)
            {
                clock.advance(1 + op.size());
            }
            else
            {
                reclaim();
            }
        }

        private void newAccount(final Op op)
        {
            final Account parent = op.flag() % 2 == 0 || openAccounts.isEmpty() ? null :
                openAccounts.get(op.pick() % openAccounts.size());
            openAccounts.add(tracker.newAccount(parent));
        }

        private void register(final Op op)
        {
            if (openAccounts.isEmpty())
            {
                return;
            }
            final Account account = openAccounts.get(op.pick() % openAccounts.size());
            final FakeParticipant participant = new FakeParticipant("p" + all.size());
            final Held held = new Held(participant);
            if (op.flag() == 3)
            {
                // a cache that frees half of what it holds per request and moves its oldest data forward
                participant.mode = FakeParticipant.Mode.PARTIAL;
                participant.onPartial = request ->
                {
                    final long half = (held.outstanding + 1) / 2;
                    participant.participation.release(half);
                    held.outstanding -= half;
                    participant.oldestNs = held.outstanding == 0 ? Participant.NO_DATA : clock.nowNs();
                    return half;
                };
            }
            participant.participation = account.register(participant);
            all.add(held);
        }

        private Held pickLive(final Op op)
        {
            final List<Held> live = new ArrayList<>();
            for (final Held held : all)
            {
                if (!held.participant.participation.isGone())
                {
                    live.add(held);
                }
            }
            return live.isEmpty() ? null : live.get(op.pick() % live.size());
        }

        private void claim(final Op op)
        {
            if (all.isEmpty())
            {
                return;
            }
            // sometimes aim at a forgotten participant on purpose: it must refuse
            final Held held = op.flag() == 0 ? all.get(op.pick() % all.size()) : pickLive(op);
            if (held == null)
            {
                return;
            }
            final Participation participation = held.participant.participation;
            final boolean gone = participation.isGone();
            try
            {
                participation.claim(op.size());
                assertThat(gone).as("a forgotten participant accepted a claim").isFalse();
                held.outstanding += op.size();
                if (held.participant.oldestNs == Participant.NO_DATA && held.outstanding > 0)
                {
                    held.participant.oldestNs = clock.nowNs();
                }
            }
            catch (final MemoryQuotaException.QuotaExhausted ex)
            {
                // refused while over the hard cap: allowed for live participants, and nothing was claimed
                assertThat(tracker.usedBytes()).as("refused although not over the hard cap")
                    .isGreaterThan(tracker.config().hardCapBytes());
            }
            catch (final MemoryQuotaException ex)
            {
                assertThat(gone).as("a live participant refused a claim: " + ex).isTrue();
            }
        }

        private void release(final Op op)
        {
            final Held held = pickLive(op);
            if (held == null || held.outstanding == 0)
            {
                return;
            }
            final long bytes = op.size() % (held.outstanding + 1);
            held.participant.participation.release(bytes);
            held.outstanding -= bytes;
            if (held.outstanding == 0)
            {
                held.participant.oldestNs = Participant.NO_DATA;
            }
        }

        private void closeParticipation(final Op op)
        {
            final Held held = pickLive(op);
            if (held != null)
            {
                held.participant.participation.close();
            }
        }

        private void closeAccount(final Op op)
        {
            if (!openAccounts.isEmpty())
            {
                openAccounts.remove(op.pick() % openAccounts.size()).close();
            }
        }

        private void reclaim()
        {
            final long before = tracker.usedBytes();
            final int[] callsBefore = new int[all.size()];
            for (int i = 0; i < all.size(); i++)
            {
                callsBefore[i] = all.get(i).participant.reclaimCalls();
            }

            final int asked = tracker.reclaimIfNeeded();
            Statistics.label("reclaim rounds").collect(asked > 0 ? "asked participants" : "nothing due");

            if (before <= MAX)
            {
                assertThat(asked).isZero();
                assertThat(tracker.usedBytes()).isEqualTo(before);
                return;
            }
            if (tracker.usedBytes() <= tracker.config().lowWaterBytes())
            {
                return;
            }
            // still over low water: only because everything that holds data was asked already
            for (int i = 0; i < all.size(); i++)
            {
                final Held held = all.get(i);
                if (!held.participant.participation.isGone() && held.participant.oldestNs != Participant.NO_DATA &&
                    held.participant.reclaimCalls() == callsBefore[i])
                {
                    fail("use " + tracker.usedBytes() + " is over low water but " + held.participant +
                        " holding data since " + held.participant.oldestNs + " was not asked");
                }
            }
        }

        void check()
        {
            long sum = 0;
            for (final Held held : all)
            {
                final Participation participation = held.participant.participation;
                if (participation.isGone())
                {
                    assertThat(participation.usedBytes()).as("forgotten participants count for nothing").isZero();
                    continue;
                }
                final long local = participation.localCacheBytes();
                assertThat(local).as("local cache of " + held.participant)
                    .isBetween(0L, Participation.LOCAL_CACHE_MAX_BYTES);
                assertThat(participation.usedBytes()).as("use of " + held.participant)
                    .isEqualTo(held.outstanding + local);
                sum += participation.usedBytes();
            }
            assertThat(tracker.usedBytes()).as("total vs sum of live participations").isEqualTo(sum);
            assertThat(tracker.counters().accounts()).isEqualTo(openAccounts.size());
        }
    }
}
