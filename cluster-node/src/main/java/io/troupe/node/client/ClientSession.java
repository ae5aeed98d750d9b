package io.troupe.node.client;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.ImageControlledFragmentAssembler;
import io.aeron.exceptions.AeronException;
import io.troupe.actor.ActorId;
import io.troupe.actor.CreditAccount;
import io.troupe.actor.ServiceId;
import io.troupe.interconnect.seal.FrameSeal;
import io.troupe.serialization.wire.FrameProtection;
import org.agrona.CloseHelper;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;

/**
 * One client's session on the node, from its HELLO to its end. Owned by the ingress agent's thread; the session's
 * proxy actor only reads {@link #state} to drop what arrives for a session that ended.
 */
final class ClientSession
{
    enum State
    {
        /** A verified HELLO was answered with a WELCOME; the CONFIRM is awaited. */
        HANDSHAKE,
        /** Confirmed: sealed frames flow both ways. */
        OPEN,
        /** Ended; nothing is read or sent any more. */
        CLOSED
    }

    /** Names one client may be subscribed to at once: each is an entry in the node's directory. */
    static final int MAX_SUBSCRIPTIONS = 1024;
    /** Messages kept while the client's data publication pushes back; beyond, replies are dropped and counted. */
    static final int MAX_PENDING_MESSAGES = 1024;

    final int aeronSessionId;
    final int clientId;
    final long clientIncarnation;
    final String endpoint;
    final FrameProtection protection;
    /** The client's HELLO challenge (echoed in the WELCOME) and ours (which its CONFIRM must prove). */
    final byte[] clientChallenge;
    final byte[] challenge;
    final long handshakeDeadlineNs;
    /** The publications to the client, once the driver made them (asked for asynchronously), and their requests. */
    ExclusivePublication control;
    ExclusivePublication data;
    final long controlRegistration;
    final long dataRegistration;
    /** The WELCOME, kept until the publication is connected and takes it. */
    byte[] welcome;
    volatile State state = State.HANDSHAKE;

    FrameSeal.Sealer sealer;
    FrameSeal.Opener opener;
    CreditAccount account;
    ActorId proxy = ActorId.NONE;
    /** The stream's image once found, and the assembler of its fragments. */
    Image dataImage;
    ImageControlledFragmentAssembler assembler;
    /** The cluster's endpoints last written to the client (null: none yet). */
    Object endpointsSent;
    /** Whether the account was found in debt and the proxy waits for its {@code FundsCleared}. */
    boolean throttled;
    long lastHeardNs;
    long nextHeartbeatNs;
    long heartbeatSequence;
    /** Asks waiting for their reply: ask id (the client's cookie) to the time the slot is freed regardless. */
    final Long2LongHashMap asks = new Long2LongHashMap(Long.MIN_VALUE);
    /** The actors of the pending asks, watched by the proxy: an ask whose actor goes fails at once. */
    final AskTargets askTargets = new AskTargets();
    long nextAskSweepNs;
    /** The names the client is subscribed to (on node 0), at most {@link #MAX_SUBSCRIPTIONS}. */
    final Set<ServiceId> subscriptions = new HashSet<>();

    /** The data message being packed (frames with their length prefixes, no seal yet). */
    final UnsafeBuffer batch;
    int batchLength;
    /** Sealed messages the publication pushed back, oldest first. */
    final ArrayDeque<byte[]> pending = new ArrayDeque<>();

    /** What other threads may read of this session. */
    final ClientSessionStats stats;

    ClientSession(
        final int aeronSessionId,
        final int clientId,
        final long clientIncarnation,
        final String endpoint,
        final FrameProtection protection,
        final byte[] clientChallenge,
        final byte[] challenge,
        final long handshakeDeadlineNs,
        final long controlRegistration,
        final long dataRegistration,
        final int batchCapacity)
    {
        this.aeronSessionId = aeronSessionId;
        this.clientId = clientId;
        this.clientIncarnation = clientIncarnation;
        this.endpoint = endpoint;
        this.protection = protection;
        this.clientChallenge = clientChallenge;
        this.challenge = challenge;
        this.handshakeDeadlineNs = handshakeDeadlineNs;
        this.controlRegistration = controlRegistration;
        this.dataRegistration = dataRegistration;
        this.batch = new UnsafeBuffer(new byte[batchCapacity]);
        this.stats = new ClientSessionStats(clientId, clientIncarnation, aeronSessionId, endpoint);
    }

    boolean isOpen()
    {
        return state == State.OPEN;
    }

    /** Takes the publications the driver has made by now; false if one could not be made (the session must end). */
    boolean resolvePublications(final Aeron aeron)
    {
        try
        {
            if (control == null)
            {
                control = aeron.getExclusivePublication(controlRegistration);
            }
            if (data == null)
            {
                data = aeron.getExclusivePublication(dataRegistration);
            }
            return true;
        }
        catch (final AeronException ex)
        {
            return false;
        }
    }

    void closePublications(final Aeron aeron)
    {
        resolvePublications(aeron);
        if (control == null)
        {
            aeron.asyncRemovePublication(controlRegistration);
        }
        if (data == null)
        {
            aeron.asyncRemovePublication(dataRegistration);
        }
        CloseHelper.quietCloseAll(control, data);
    }

    @Override
    public String toString()
    {
        return "client " + clientId + " (incarnation " + clientIncarnation + ", at " + endpoint + ')';
    }
}
