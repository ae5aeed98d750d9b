package io.troupe.membership.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** One proof per node process, shared by every thread of it that authenticates. */
class MembershipProofTest
{
    private static final int THREADS = 4;
    private static final int ROUNDS = 20_000;

    /**
     * A voter's consensus module and archive check answers on their own threads while its membership client and its
     * archive clients answer challenges on theirs, all with the node's one proof: an answer made with the right
     * secret must never be refused because another thread used the proof at the same time.
     */
    @Test
    @Timeout(60)
    void provesAndChecksFromSeveralThreadsAtOnceWithoutARightAnswerRefused() throws Exception
    {
        final MembershipProof proof = new MembershipProof(MembershipHarness.SECRET, MembershipHarness.CLUSTER,
            MembershipHarness.VOTERS_DIGEST);
        final MembershipProof.Identity identity = MembershipProof.read(proof.credentials(7, 11));
        final AtomicInteger refused = new AtomicInteger();
        final CountDownLatch go = new CountDownLatch(1);
        final List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++)
        {
            final Thread thread = new Thread(() ->
            {
                try
                {
                    go.await();
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 0; i < ROUNDS; i++)
                {
                    final byte[] challenge = proof.newChallenge();
                    final byte[] answer = proof.prove(7, 11, challenge);
                    if (!proof.verify(identity, challenge, answer))
                    {
                        refused.incrementAndGet();
                    }
                }
            }, "proof-" + t);
            threads.add(thread);
            thread.start();
        }
        go.countDown();
        for (final Thread thread : threads)
        {
            thread.join();
        }
        assertThat(refused.get()).as("right answers refused of %d", THREADS * ROUNDS).isZero();
    }
}
