package io.troupe.interconnect;

import io.troupe.interconnect.seal.FrameSeal;

import java.util.Arrays;

/**
 * The session state machine of one peer, and the one owner of its state: whether a session is up, the peer's
 * incarnation and Aeron session id in it, its keys, the handshake attempt under way (its step, challenges,
 * incarnation, Aeron session, deadline and pending keys), when the next HELLO is due, the sessions-up and -down
 * counts, and the flag sending threads read ({@link #isEstablished}). Everything else asks through the methods
 * below; each transition is named by the event that makes it.
 *
 * <pre>
 *   DISCONNECTED --helloSent / helloAnswered--&gt; HANDSHAKING (attempt HELLO_SENT / WELCOME_SENT)
 *   HANDSHAKING  --welcomeReceived--&gt; HANDSHAKING (attempt CONFIRM_SENT, keys pending)
 *   HANDSHAKING  --confirmed / firstSealedFrameSeen--&gt; ESTABLISHED (the attempt's keys become the session's)
 *   HANDSHAKING  --attemptEnded--&gt; DISCONNECTED (timed out, refused, broken, or superseded by a new HELLO)
 *   ESTABLISHED  --helloAnswered--&gt; ESTABLISHED with an attempt beside it (a peer back with a new incarnation)
 *   ESTABLISHED  --sessionLost(why)--&gt; DISCONNECTED, or HANDSHAKING if an attempt runs beside it
 *   DISCONNECTED, HANDSHAKING --peerRemoved--&gt; REMOVED (final; end an established session first)
 * </pre>
 *
 * <p>An attempt replaces an established session only once it completes, and the session it replaces is lost
 * first ({@link #sessionLost}), so {@link #confirmed} and {@link #firstSealedFrameSeen} start from no session.
 *
 * <p>An illegal transition is a bug. The ones only the agent itself makes ({@link #helloSent}, {@link #peerRemoved},
 * {@link #retryHelloAt}) throw {@link IllegalStateException}; the ones a frame from the network makes return false,
 * change nothing and are counted ({@link #refusedTransitions}): network input never throws into the agent's loop.
 * The callers check what the network sent before they ask, so a refusal means the check and the machine disagree.
 *
 * <p>Threads: the interconnect agent's only, except {@link #isEstablished}, {@link #sessionsUp},
 * {@link #sessionsDown} and (racily, for counters) {@link #incarnation}. A transition up or down writes the flag
 * last, after the session counts, so a thread that sees the flag change sees them counted; the agent accounts for a
 * session's end (what was in flight, the round trip) before it calls {@link #sessionLost}, for the same reason.
 */
class PeerSession
{
    /** Where a peer stands, as one value (see the class comment for the moves between them). */
    enum State
    {
        /** No session and no handshake attempt. */
        DISCONNECTED,
        /** No session; a handshake attempt is under way ({@link Attempt}). */
        HANDSHAKING,
        /** Both sides verified each other and hold the session's keys; an attempt may run beside it. */
        ESTABLISHED,
        /** No longer one of this node's peers: nothing moves it any more. */
        REMOVED
    }

    /** The step of the handshake attempt under way. */
    enum Attempt
    {
        /** No attempt. */
        NONE,
        /** We initiate: HELLO sent, waiting for a WELCOME that answers it. */
        HELLO_SENT,
        /** We answered a HELLO with a WELCOME, waiting for the CONFIRM that answers it. */
        WELCOME_SENT,
        /** We confirmed: keys derived, waiting for the first frame the peer seals with them. */
        CONFIRM_SENT
    }

    /** Where the peer is found by the Aeron session id of its publications ({@link InboundFrames}). */
    interface Index
    {
        /**
         * Sealed messages from this Aeron session may now be opened as the peer's.
         *
         * @param aeronSessionId the peer's publications' session id.
         * @param session        the peer.
         */
        void bind(int aeronSessionId, PeerSession session);

        /**
         * The peer no longer answers to this Aeron session id.
         *
         * @param aeronSessionId the session id.
         */
        void unbind(int aeronSessionId);
    }

    final int nodeId;
    /** Whether this node initiates handshakes with the peer (the lower node id does). */
    final boolean initiator;
    private final Index index;

    /** The flag senders read: true while a session is up. Written last by every transition up or down. */
    private volatile boolean established;
    private volatile long sessionsUp;
    private volatile long sessionsDown;
    /** The agent's own copy of {@link #established}, read per frame without a volatile read. */
    private boolean up;
    private boolean removed;
    private long incarnation;
    private int sessionId;
    /** The session's seal for what we send and opener for what the peer sends; null while no session is up. */
    private FrameSeal.Sealer sealer;
    private FrameSeal.Opener opener;
    /** The highest incarnation of the peer that completed a handshake with us: an older one's HELLO is stale. */
    private long latestVerifiedIncarnation;
    private long nextHelloNs;
    private String lastLoss;
    private long refusedTransitions;

    private Attempt attempt = Attempt.NONE;
    /** The challenge we sent in this attempt (HELLO or WELCOME), and the peer's (WELCOME or HELLO). */
    private byte[] ourChallenge;
    private byte[] theirChallenge;
    private long attemptIncarnation;
    private int attemptSessionId;
    private long attemptDeadlineNs;
    /** Keys of the attempt once derived (CONFIRM_SENT): the first frame the peer seals with them completes it. */
    private FrameSeal.Sealer pendingSealer;
    private FrameSeal.Opener pendingOpener;

    /**
     * @param nodeId    the peer's node id.
     * @param initiator whether this node initiates the handshakes.
     * @param index     where the peer's Aeron session ids are bound while it answers to them.
     */
    PeerSession(final int nodeId, final boolean initiator, final Index index)
    {
        this.nodeId = nodeId;
        this.initiator = initiator;
        this.index = index;
    }

    // ------------------------------------------------------------------ what the state is

    State state()
    {
        return removed ? State.REMOVED : up ? State.ESTABLISHED :
            attempt != Attempt.NONE ? State.HANDSHAKING : State.DISCONNECTED;
    }

    Attempt attempt()
    {
        return attempt;
    }

    /** Whether a session is up: any thread (the flag senders read). */
    final boolean isEstablished()
    {
        return established;
    }

    /** Whether a session is up: the agent's thread, no volatile read. */
    final boolean isUp()
    {
        return up;
    }

    boolean isRemoved()
    {
        return removed;
    }

    /** The peer's incarnation in the current session, or the last one (0 before any). */
    long incarnation()
    {
        return incarnation;
    }

    /** The Aeron session id of the peer's publications in the current session, 0 while none is up. */
    int sessionId()
    {
        return sessionId;
    }

    /** The session's sealer, null while no session is up. */
    FrameSeal.Sealer sealer()
    {
        return sealer;
    }

    long sessionsUp()
    {
        return sessionsUp;
    }

    long sessionsDown()
    {
        return sessionsDown;
    }

    /** Why the last session ended, or null if none has. */
    String lastLoss()
    {
        return lastLoss;
    }

    /** Transitions a frame from the network asked for that were not legal here, refused. */
    long refusedTransitions()
    {
        return refusedTransitions;
    }

    byte[] ourChallenge()
    {
        return ourChallenge;
    }

    byte[] theirChallenge()
    {
        return theirChallenge;
    }

    long attemptIncarnation()
    {
        return attemptIncarnation;
    }

    // ------------------------------------------------------------------ questions about what arrived

    /**
     * The opener for a sealed message with key id {@code keyId} from Aeron session {@code aeronSessionId}: the
     * attempt's (once CONFIRM_SENT) or the session's; null if neither fits.
     */
    final FrameSeal.Opener openerFor(final int keyId, final int aeronSessionId)
    {
        final FrameSeal.Opener pending = pendingOpener;
        if (pending != null && pending.keyId() == keyId && attemptSessionId == aeronSessionId)
        {
            return pending;
        }
        final FrameSeal.Opener current = opener;
        return current != null && current.keyId() == keyId && sessionId == aeronSessionId ? current : null;
    }

    /** Whether an opener from {@link #openerFor} is the attempt's: its first message completes the attempt. */
    final boolean isAttemptOpener(final FrameSeal.Opener candidate)
    {
        return candidate != null && candidate == pendingOpener;
    }

    /** Whether a verified HELLO comes from an incarnation older than one that completed a handshake with us. */
    boolean isStaleHello(final long helloIncarnation)
    {
        return helloIncarnation < latestVerifiedIncarnation;
    }

    /** Whether a HELLO repeats the one our current WELCOME answers (a retry, or a backlog): answered the same. */
    boolean isRepeatedHello(final long helloIncarnation, final int aeronSessionId, final byte[] challenge)
    {
        return attempt == Attempt.WELCOME_SENT && attemptIncarnation == helloIncarnation &&
            attemptSessionId == aeronSessionId && Arrays.equals(theirChallenge, challenge);
    }

    /** Whether a WELCOME echoes the challenge of the HELLO we are waiting on an answer to. */
    boolean answersOurHello(final byte[] echo)
    {
        return attempt == Attempt.HELLO_SENT && Arrays.equals(echo, ourChallenge);
    }

    /** Whether a CONFIRM answers our current WELCOME: same incarnation, Aeron session, and our challenge echoed. */
    boolean answersOurWelcome(final long confirmIncarnation, final int aeronSessionId, final byte[] echo)
    {
        return attempt == Attempt.WELCOME_SENT && confirmIncarnation == attemptIncarnation &&
            aeronSessionId == attemptSessionId && Arrays.equals(echo, ourChallenge);
    }

    /** Whether an attempt waiting for the peer (WELCOME_SENT, CONFIRM_SENT) has run past its deadline. */
    boolean attemptExpired(final long nowNs)
    {
        return (attempt == Attempt.WELCOME_SENT || attempt == Attempt.CONFIRM_SENT) && nowNs - attemptDeadlineNs >= 0;
    }

    /** Whether this node should send (or repeat) a HELLO now: it initiates, no session is up, none is confirmed. */
    boolean helloDue(final long nowNs)
    {
        return initiator && !removed && !up && (attempt == Attempt.NONE || attempt == Attempt.HELLO_SENT) &&
            nowNs - nextHelloNs >= 0;
    }

    // ------------------------------------------------------------------ transitions

    /**
     * The next HELLO is due at {@code atNs} (the retry back-off). Agent only.
     *
     * @throws IllegalStateException if the peer was removed.
     */
    void retryHelloAt(final long atNs)
    {
        if (removed)
        {
            throw illegal("schedule a HELLO");
        }
        nextHelloNs = atNs;
    }

    /**
     * We sent a HELLO: a new attempt with {@code challenge}, or a retry of the attempt under way with its own
     * challenge (so a WELCOME answering the first still fits).
     *
     * @throws IllegalStateException if this node does not initiate, a session is up, the peer was removed, or
     *                               another step is under way.
     */
    void helloSent(final byte[] challenge)
    {
        final boolean retry = attempt == Attempt.HELLO_SENT && challenge == ourChallenge;
        if (!initiator || removed || up || !(attempt == Attempt.NONE || retry) || challenge == null)
        {
            throw illegal("send a HELLO");
        }
        attempt = Attempt.HELLO_SENT;
        ourChallenge = challenge;
    }

    /**
     * We answered a verified HELLO with a WELCOME: a new attempt (end the one under way first,
     * {@link #attemptEnded}). A session, if one is up, stays until the attempt completes.
     *
     * @return false (refused, counted) if this node initiates, the peer was removed, or an attempt is under way.
     */
    boolean helloAnswered(final long helloIncarnation, final int aeronSessionId, final byte[] theirs,
        final byte[] ours, final long deadlineNs)
    {
        if (initiator || removed || attempt != Attempt.NONE)
        {
            return refuse();
        }
        attempt = Attempt.WELCOME_SENT;
        attemptIncarnation = helloIncarnation;
        attemptSessionId = aeronSessionId;
        theirChallenge = theirs;
        ourChallenge = ours;
        attemptDeadlineNs = deadlineNs;
        return true;
    }

    /**
     * A WELCOME answered our HELLO and verified, and we sent the CONFIRM: the attempt's keys are derived, and the
     * peer's sealed messages from {@code aeronSessionId} may come now (the first completes the attempt).
     *
     * @return false (refused, counted) unless this node initiates and waits for a WELCOME with no session up.
     */
    boolean welcomeReceived(final long welcomeIncarnation, final int aeronSessionId, final byte[] theirs,
        final FrameSeal.Sealer sealer, final FrameSeal.Opener opener, final long deadlineNs)
    {
        if (!initiator || removed || up || attempt != Attempt.HELLO_SENT)
        {
            return refuse();
        }
        attempt = Attempt.CONFIRM_SENT;
        attemptIncarnation = welcomeIncarnation;
        attemptSessionId = aeronSessionId;
        theirChallenge = theirs;
        attemptDeadlineNs = deadlineNs;
        pendingSealer = sealer;
        pendingOpener = opener;
        index.bind(aeronSessionId, this);
        return true;
    }

    /**
     * The CONFIRM answering our WELCOME verified (we accept): the session is up with these keys. A session it
     * replaces must have been lost first.
     *
     * @return false (refused, counted) unless this node accepts, waits for a CONFIRM, and has no session up.
     */
    boolean confirmed(final FrameSeal.Sealer sealer, final FrameSeal.Opener opener)
    {
        if (initiator || removed || up || attempt != Attempt.WELCOME_SENT)
        {
            return refuse();
        }
        establish(sealer, opener);
        return true;
    }

    /**
     * The first message the peer sealed with the attempt's keys verified (we initiate): it has verified our
     * CONFIRM, so the session is up.
     *
     * @return false (refused, counted) unless this node initiates, has confirmed, and has no session up.
     */
    boolean firstSealedFrameSeen()
    {
        if (!initiator || removed || up || attempt != Attempt.CONFIRM_SENT)
        {
            return refuse();
        }
        establish(pendingSealer, pendingOpener);
        return true;
    }

    private void establish(final FrameSeal.Sealer newSealer, final FrameSeal.Opener newOpener)
    {
        incarnation = attemptIncarnation;
        sessionId = attemptSessionId;
        latestVerifiedIncarnation = Math.max(latestVerifiedIncarnation, attemptIncarnation);
        sealer = newSealer;
        opener = newOpener;
        clearAttempt();
        up = true;
        index.bind(sessionId, this);
        sessionsUp = sessionsUp + 1;
        established = true; // last: a sender that sees it sees the keys, and a reader the count
    }

    /**
     * The attempt under way, if any, ended without a session: it timed out, a step of it was refused, its stream
     * broke, or a new HELLO supersedes it. A session, if one is up, is untouched.
     *
     * @return false (refused, counted) if the peer was removed.
     */
    boolean attemptEnded()
    {
        if (removed)
        {
            return refuse();
        }
        if (attempt == Attempt.CONFIRM_SENT && attemptSessionId != sessionId)
        {
            index.unbind(attemptSessionId);
        }
        clearAttempt();
        return true;
    }

    private void clearAttempt()
    {
        attempt = Attempt.NONE;
        pendingSealer = null;
        pendingOpener = null;
        ourChallenge = null;
        theirChallenge = null;
    }

    /**
     * The session ended ({@code why}). An attempt under way goes on, keeping the Aeron session it shares with the
     * ended session, if it does. The caller has accounted for what the session leaves behind before: the flag
     * senders read turns false last.
     *
     * @return false (refused, counted) if no session was up.
     */
    boolean sessionLost(final String why)
    {
        if (!up)
        {
            return refuse();
        }
        up = false;
        sealer = null;
        opener = null;
        if (!(attempt == Attempt.CONFIRM_SENT && attemptSessionId == sessionId))
        {
            index.unbind(sessionId);
        }
        sessionId = 0;
        lastLoss = why;
        sessionsDown = sessionsDown + 1;
        established = false; // last: a reader that sees the peer down sees the loss counted
        return true;
    }

    /**
     * The peer is no longer one of this node's: its attempt, if any, ends, and nothing moves it again.
     *
     * @throws IllegalStateException if a session is up (end it first, {@link #sessionLost}) or it was removed.
     */
    void peerRemoved()
    {
        if (removed || up)
        {
            throw illegal("remove the peer");
        }
        attemptEnded();
        removed = true;
    }

    private boolean refuse()
    {
        refusedTransitions++;
        return false;
    }

    private IllegalStateException illegal(final String what)
    {
        return new IllegalStateException("node " + nodeId + ": cannot " + what + " in state " + state() +
            " (attempt " + attempt + (initiator ? ", initiator)" : ", acceptor)"));
    }
}
