package io.troupe.membership.internal;

import io.aeron.security.Authenticator;
import io.aeron.security.SessionProxy;
import io.troupe.membership.internal.VoterCounts.Figure;
import org.agrona.collections.Long2ObjectHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Iterator;

/**
 * Admits to the membership service only nodes that prove the cluster secret over a fresh challenge
 * ({@link MembershipProof}); everyone else is rejected and counted. Runs on the consensus module's thread. What a
 * connect request creates here is bounded: at most {@link #MAX_PENDING} sessions between their connect request and
 * their answer, each forgotten after {@link #PENDING_LIMIT_MS}; beyond that a request is rejected at once.
 */
final class MembershipAuthenticator implements Authenticator
{
    /** The most sessions waiting to be challenged or to answer. */
    static final int MAX_PENDING = 256;
    /** How long a session may take to answer its challenge. */
    static final long PENDING_LIMIT_MS = 5_000;
    /** At most one warning about a node with another voter list per this many ms (such a node retries often). */
    static final long VOTER_LIST_WARNING_INTERVAL_MS = 10_000;
    /** At most one line about a refused session per this many ms (the count has them all). */
    static final long REJECTION_LOG_INTERVAL_MS = 10_000;
    private static final Logger LOG = LoggerFactory.getLogger(MembershipAuthenticator.class);

    private final MembershipProof proof;
    private final VoterCounts counts;
    private final Figure admitted;
    private final Figure rejected;
    private final Long2ObjectHashMap<Pending> pending = new Long2ObjectHashMap<>();
    private long lastVoterListWarningMs = Long.MIN_VALUE / 2;
    private long lastRejectionLogMs = Long.MIN_VALUE / 2;

    /** One session's progress: who it said it is, its challenge once sent, and the verdict once it answered. */
    private static final class Pending
    {
        private final MembershipProof.Identity identity;
        private final long sinceMs;
        private byte[] challenge;
        /** 0 no answer yet, 1 proved, -1 failed. */
        private int verdict;

        private Pending(final MembershipProof.Identity identity, final long sinceMs)
        {
            this.identity = identity;
            this.sinceMs = sinceMs;
        }
    }

    MembershipAuthenticator(final MembershipProof proof, final VoterCounts counts, final Figure admitted,
        final Figure rejected)
    {
        this.proof = proof;
        this.counts = counts;
        this.admitted = admitted;
        this.rejected = rejected;
    }

    @Override
    public void onConnectRequest(final long sessionId, final byte[] encodedCredentials, final long nowMs)
    {
        forgetOld(nowMs);
        final MembershipProof.Identity identity = MembershipProof.read(encodedCredentials);
        if (identity != null && proof.clusterId().equals(identity.clusterId()) && pending.size() < MAX_PENDING)
        {
            pending.put(sessionId, new Pending(identity, nowMs));
        }
        // else nothing is kept: the session is rejected when Aeron Cluster reports it connected
    }

    @Override
    public void onConnectedSession(final SessionProxy session, final long nowMs)
    {
        final Pending entry = pending.get(session.sessionId());
        if (entry == null || entry.verdict < 0)
        {
            reject(session, entry, nowMs);
            return;
        }
        if (entry.challenge == null)
        {
            final byte[] challenge = proof.newChallenge();
            if (session.challenge(challenge))
            {
                entry.challenge = challenge;
            }
        }
    }

    @Override
    public void onChallengeResponse(final long sessionId, final byte[] encodedCredentials, final long nowMs)
    {
        final Pending entry = pending.get(sessionId);
        if (entry != null && entry.challenge != null && entry.verdict == 0)
        {
            entry.verdict = proof.verify(entry.identity, entry.challenge, encodedCredentials) ? 1 : -1;
        }
    }

    @Override
    public void onChallengedSession(final SessionProxy session, final long nowMs)
    {
        final Pending entry = pending.get(session.sessionId());
        if (entry == null || entry.verdict < 0 || nowMs - entry.sinceMs > PENDING_LIMIT_MS)
        {
            reject(session, entry, nowMs);
        }
        else if (entry.verdict > 0 && entry.identity.votersDigest() != proof.votersDigest())
        {
            // it holds the secret: a node of this cluster whose config lists other voters, which an operator must fix
            if (nowMs - lastVoterListWarningMs >= VOTER_LIST_WARNING_INTERVAL_MS)
            {
                lastVoterListWarningMs = nowMs;
                LOG.warn("membership: node {} (incarnation {}) proved the cluster secret but lists other voters than " +
                    "this voter (digest {} here, {} there): it is refused; give every node the same " +
                    "troupe.membership.voters (or seeds), in the same order", entry.identity.nodeId(),
                    entry.identity.incarnation(), Long.toHexString(proof.votersDigest()),
                    Long.toHexString(entry.identity.votersDigest()));
            }
            counts.increment(Figure.VOTER_LISTS_DIFFER); // and as rejected, below: its own warning said why
            refuse(session);
        }
        else if (entry.verdict > 0 &&
            session.authenticate(MembershipProof.principal(entry.identity, entry.challenge)))
        {
            pending.remove(session.sessionId());
            counts.increment(admitted);
        }
    }

    /** Rejects and counts a session. */
    private void refuse(final SessionProxy session)
    {
        pending.remove(session.sessionId());
        session.reject();
        counts.increment(rejected);
    }

    /** {@link #refuse}s a session and says why (at most once per interval: a stranger may retry often). */
    private void reject(final SessionProxy session, final Pending entry, final long nowMs)
    {
        refuse(session);
        if (nowMs - lastRejectionLogMs >= REJECTION_LOG_INTERVAL_MS)
        {
            lastRejectionLogMs = nowMs;
            LOG.warn("membership: {} session {} refused: {}{} (the count of refusals has every one)",
                rejected == Figure.ARCHIVE_SESSIONS_REJECTED ? "an archive" : "a service", session.sessionId(),
                entry == null ? "" : "node " + entry.identity.nodeId() + " (incarnation " +
                entry.identity.incarnation() + ") gave ", why(entry));
        }
    }

    private static String why(final Pending entry)
    {
        if (entry == null)
        {
            return "no credentials of this cluster";
        }
        return entry.verdict < 0 ? "a wrong answer to its challenge (another secret?)" :
            "no answer within " + PENDING_LIMIT_MS + " ms";
    }

    private void forgetOld(final long nowMs)
    {
        final Iterator<Pending> entries = pending.values().iterator();
        while (entries.hasNext())
        {
            if (nowMs - entries.next().sinceMs > PENDING_LIMIT_MS)
            {
                entries.remove();
            }
        }
    }
}
