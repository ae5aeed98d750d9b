package io.troupe.membership.internal;

import io.aeron.cluster.service.ClientSession;
import io.aeron.cluster.service.Cluster;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * The service's side of its sessions' {@link SessionGuard}s, by cluster session id: one per open session, made
 * from the principal Aeron Cluster recorded when it admitted the session, and gone when it closes. Part of the
 * replicated state: the sequences are in the snapshot ({@link ServiceSnapshot}) and re-attached to the sessions
 * Aeron Cluster restores from its own. As many as the open sessions (at most the consensus module's limit). Owned
 * by the service's thread.
 */
final class SessionGuards
{
    private final MembershipProof proof;
    private final Long2ObjectHashMap<SessionGuard> guards = new Long2ObjectHashMap<>();
    /** Sequences read from a snapshot ({sealed, taken}), until {@link #attach} finds their sessions. */
    private final Long2ObjectHashMap<long[]> restored = new Long2ObjectHashMap<>();

    SessionGuards(final MembershipProof proof)
    {
        this.proof = proof;
    }

    /**
     * Makes the guard of a session just opened.
     *
     * @param session the session.
     * @return its guard, or null if its principal is not one this service's authenticator records.
     */
    SessionGuard open(final ClientSession session)
    {
        final SessionGuard guard = guardOf(session);
        if (guard != null)
        {
            guards.put(session.id(), guard);
        }
        return guard;
    }

    private SessionGuard guardOf(final ClientSession session)
    {
        final MembershipProof.Principal principal = MembershipProof.readPrincipal(session.encodedPrincipal());
        return principal == null ? null :
            proof.guard(true, principal.nodeId(), principal.incarnation(), principal.challenge());
    }

    /**
     * Forgets a session's guard.
     *
     * @param sessionId the closed session's id.
     */
    void close(final long sessionId)
    {
        guards.remove(sessionId);
    }

    /**
     * A session's guard.
     *
     * @param sessionId the session's id.
     * @return its guard, or null for a session without one.
     */
    SessionGuard get(final long sessionId)
    {
        return guards.get(sessionId);
    }

    /** Hears each session's sequences, for a snapshot. */
    interface Visitor
    {
        /**
         * One session.
         *
         * @param sessionId its id.
         * @param sealed    the last sequence sealed on its notices.
         * @param taken     the last sequence taken of its requests.
         */
        void session(long sessionId, long sealed, long taken);
    }

    /**
     * Tells each session's sequences.
     *
     * @param visitor who hears them.
     */
    void forEach(final Visitor visitor)
    {
        guards.forEach((id, guard) -> visitor.session(id, guard.sent(), guard.taken()));
    }

    /**
     * Remembers a session's sequences from a snapshot.
     *
     * @param sessionId the session's id.
     * @param sealed    the last sequence sealed on its notices.
     * @param taken     the last sequence taken of its requests.
     */
    void restore(final long sessionId, final long sealed, final long taken)
    {
        restored.put(sessionId, new long[] {sealed, taken});
    }

    /**
     * Gives the sessions Aeron Cluster restored from its snapshot their guards, with the sequences the service's
     * snapshot had (a session without a principal this service records gets none: nothing it sends is taken).
     *
     * @param cluster the cluster, its sessions loaded.
     */
    void attach(final Cluster cluster)
    {
        for (final ClientSession session : cluster.clientSessions())
        {
            final SessionGuard guard = open(session);
            final long[] sequences = restored.get(session.id());
            if (guard != null && sequences != null)
            {
                guard.restore(sequences[0], sequences[1]);
            }
        }
        restored.clear();
    }
}
