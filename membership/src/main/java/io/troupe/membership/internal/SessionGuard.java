package io.troupe.membership.internal;

import io.troupe.interconnect.seal.SessionKeys;
import io.troupe.serialization.wire.FrameProtection;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;

/**
 * The tags on one membership session's messages after its handshake. Aeron Cluster authenticates a session only
 * when it connects; what follows travels as plain UDP, where whoever can put a datagram on the path could add a
 * request (a forged {@code Down} or {@code Leave}) or a notice (a node told its incarnation ended). So each
 * message carries a trailer that only holders of the session's keys can make:
 *
 * <pre>
 *   body | int64 sequence (little-endian) | 16-byte tag = HMAC-SHA256(key, sequence | body), truncated
 * </pre>
 *
 * The keys are derived ({@link SessionKeys}, label {@link #DOMAIN}) from the cluster secret, the node's identity
 * in its credentials and the fresh challenge the service sent it, one per direction: a message of an earlier
 * session, or one reflected back at its sender, fails. A receiver takes a message only with its tag right and its
 * sequence greater than any it took before (gaps are allowed: a request sent to a leader that fell never reaches
 * the log, and an offer the leader could not make is not made again), so a replay is refused too.
 *
 * <p>On the service's side a guard is part of the replicated state: its sequences move only with the log (a
 * notice's number is used whether or not this voter's offer left the process, as on a follower), and they are in
 * the snapshot, so every voter takes and refuses the same requests. Owned by one thread: the service's, or the
 * membership client's.
 */
final class SessionGuard
{
    /** The label of the keys' derivation. */
    static final String DOMAIN = "troupe-membership-session-v1";
    /** Bytes of the tag. */
    static final int TAG = 16;
    /** Bytes the trailer adds to a message. */
    static final int TRAILER = Long.BYTES + TAG;
    /** The longest message a guard opens or seals, trailer included. */
    static final int MAX_MESSAGE = 4096;
    /** {@link #open}: the tag is wrong (forged, damaged, or of another session or direction). */
    static final int BAD_TAG = -1;
    /** {@link #open}: the sequence is not greater than the last one taken. */
    static final int REPLAYED = -2;
    /** {@link #open}: shorter than a trailer, or longer than {@link #MAX_MESSAGE}. */
    static final int BAD_LENGTH = -3;
    private static final String HMAC = "HmacSHA256";

    private final Mac sealMac;
    private final Mac openMac;
    private final byte[] scratch = new byte[MAX_MESSAGE];
    private final byte[] tag = new byte[32];
    private long sent;
    private long taken;

    private SessionGuard(final Mac sealMac, final Mac openMac)
    {
        this.sealMac = sealMac;
        this.openMac = openMac;
    }

    /**
     * The guard of one session on one side.
     *
     * @param serviceSide true for the service's side (it opens requests and seals notices), false for the node's.
     * @param secret      the cluster secret.
     * @param clusterId   the cluster id.
     * @param nodeId      the node id in the node's credentials (0 for one to be assigned).
     * @param incarnation the incarnation in its credentials.
     * @param challenge   the challenge the service sent it.
     * @return the guard.
     */
    static SessionGuard of(final boolean serviceSide, final byte[] secret, final String clusterId, final int nodeId,
        final long incarnation, final byte[] challenge)
    {
        final SessionKeys keys = SessionKeys.derive(DOMAIN, secret, clusterId, FrameProtection.AUTHENTICATED, nodeId,
            incarnation, 0, 0, challenge, new byte[0]);
        try
        {
            // the node initiates: its requests go initiator -> acceptor, the service's notices the other way
            final boolean initiator = !serviceSide;
            return new SessionGuard(mac(keys.sealKey(initiator)), mac(keys.openKey(initiator)));
        }
        finally
        {
            keys.destroy();
        }
    }

    private static Mac mac(final byte[] key)
    {
        try
        {
            final Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(key, HMAC));
            return mac;
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException(HMAC + " is not available", ex); // every Java SE runtime has it
        }
    }

    /**
     * Seals a message in place: writes the trailer after it with the next sequence number, which is used up
     * whether or not the message is then sent.
     *
     * @param buffer the message from offset 0, with room for {@link #TRAILER} more bytes after it.
     * @param length its length, at most {@link #MAX_MESSAGE} less the trailer.
     * @return the sealed length.
     */
    int seal(final MutableDirectBuffer buffer, final int length)
    {
        if (length < 0 || length > MAX_MESSAGE - TRAILER)
        {
            throw new IllegalArgumentException("a message of " + length + " bytes: at most " +
                (MAX_MESSAGE - TRAILER) + " may be sealed");
        }
        final long sequence = ++sent;
        buffer.putLong(length, sequence, ByteOrder.LITTLE_ENDIAN);
        buffer.getBytes(0, scratch, 0, length + Long.BYTES);
        compute(sealMac, length);
        buffer.putBytes(length + Long.BYTES, tag, 0, TAG);
        return length + TRAILER;
    }

    /**
     * Checks a message of the other side; nothing it receives throws.
     *
     * @param buffer the message.
     * @param offset where it starts.
     * @param length its length, trailer included.
     * @return the body's length (the body is left where it is), or {@link #BAD_TAG}, {@link #REPLAYED} or
     *     {@link #BAD_LENGTH}.
     */
    int open(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < TRAILER || length > MAX_MESSAGE)
        {
            return BAD_LENGTH;
        }
        final int bodyLength = length - TRAILER;
        buffer.getBytes(offset, scratch, 0, length);
        compute(openMac, bodyLength);
        int difference = 0; // in constant time: how many bytes match says nothing
        for (int i = 0; i < TAG; i++)
        {
            difference |= tag[i] ^ scratch[bodyLength + Long.BYTES + i];
        }
        if (difference != 0)
        {
            return BAD_TAG;
        }
        final long sequence = buffer.getLong(offset + bodyLength, ByteOrder.LITTLE_ENDIAN);
        if (sequence <= taken)
        {
            return REPLAYED;
        }
        taken = sequence;
        return bodyLength;
    }

    /** The HMAC over the sequence and the body in {@link #scratch} (body first there), into {@link #tag}. */
    private void compute(final Mac mac, final int bodyLength)
    {
        try
        {
            mac.update(scratch, bodyLength, Long.BYTES);
            mac.update(scratch, 0, bodyLength);
            mac.doFinal(tag, 0);
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("HMAC-SHA256 failed", ex); // the tag array is large enough
        }
    }

    /**
     * The sequence number of the last message sealed.
     *
     * @return 0 before the first.
     */
    long sent()
    {
        return sent;
    }

    /**
     * The sequence number of the last message taken.
     *
     * @return 0 before the first.
     */
    long taken()
    {
        return taken;
    }

    /**
     * Restores the sequences from a snapshot.
     *
     * @param sent  the last sealed.
     * @param taken the last taken.
     */
    void restore(final long sent, final long taken)
    {
        this.sent = sent;
        this.taken = taken;
    }
}
