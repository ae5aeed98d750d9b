package io.troupe.interconnect.seal;

import io.troupe.serialization.wire.FrameProtection;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The protection of every Aeron message of a session after its handshake: a header naming the key and the
 * message's sequence number on its stream, the body, and a 16-byte tag.
 *
 * <pre>
 *   0  uint16  MARKER (0xFFFF: no SBE frame has a block this long, so a sealed control message is never
 *              taken for a handshake step)
 *   2  uint16  key id (see {@link SessionKeys})
 *   4  int64   seal count: how many messages the sender sealed with this key before (the AES-GCM nonce's
 *              counter; a message pushed back and sealed again gets a new one)
 *  12  int64   sequence on this stream in this session, from 1, one per message that reached the wire
 *  20  ...     body: the frames, in clear (AUTHENTICATED) or encrypted (ENCRYPTED)
 *  end 16      tag: AUTHENTICATED, HMAC-SHA256 over (int32 stream id, header, body), truncated;
 *              ENCRYPTED, the AES-256-GCM tag, with nonce (int32 stream id, int64 seal count) and the header as
 *              associated data
 * </pre>
 *
 * (numbers in the header little-endian).
 *
 * A receiver accepts a message only with its tag right and its sequence exactly the next on its stream: one
 * already seen is a replay, one further on means a message in between never arrived (the streams are
 * reliable, so it was displaced), and the stream can no longer be trusted to be whole.
 *
 * <p>Sealers and openers are owned by the interconnect agent's thread. Sealing and opening with
 * AUTHENTICATED allocates nothing; the JDK's AES-GCM allocates about 1 KB per message (its parameter spec and
 * cipher state on every init), per message and not per event.
 */
public final class FrameSeal
{
    /** The first two bytes of every sealed message. */
    public static final int MARKER = 0xFFFF;
    /** Bytes of the header before the body. */
    public static final int HEADER = 20;
    /** Bytes of the tag after the body. */
    public static final int TAG = 16;
    /** Bytes a seal adds to a message. */
    public static final int OVERHEAD = HEADER + TAG;

    /** Index of the control stream (each stream has its own sequence). */
    public static final int CONTROL = 0;
    /** Index of the data stream. */
    public static final int DATA = 1;
    /** Index of the bulk stream. */
    public static final int BULK = 2;

    /** {@link Opener#open}: forged, damaged or sealed with another key. */
    public static final int BAD_TAG = -1;
    /** {@link Opener#open}: the sequence number was seen before. */
    public static final int REPLAYED = -2;
    /** {@link Opener#open}: the sequence number skips one or more. */
    public static final int GAP = -3;

    private static final String AES_GCM = "AES/GCM/NoPadding";

    /**
     * Seals and opens of a small message a warm-up runs, so that the JIT's C2 compiles them, and SHA-256 (or
     * AES-GCM) with its CPU intrinsics, as early as its queue allows. On a 2-core host starting three node JVMs,
     * 6,000 rounds left seal and open in C1 code (no intrinsic, with profiling) until about a second into the
     * demo's ping-pong, at about half its rate; 20,000 bring it back near the build without seals, for some
     * 0.3 s of one core at start.
     */
    public static final int WARM_UP_ROUNDS = 20_000;
    private static final Set<FrameProtection> WARMED = ConcurrentHashMap.newKeySet();

    private FrameSeal()
    {
    }

    /**
     * Has the JIT compile sealing and opening before sessions need them, once per JVM and protection, on a daemon
     * thread of its own: interpreted, an HMAC over one datagram takes about 100 us rather than 1.3 us, and a
     * fresh node would carry its first few thousand messages that slowly. Small messages: the compiled methods are
     * the same for every length, and a warm-up over datagram-sized ones cost several times as much CPU, which
     * three nodes starting together on 2 cores felt.
     *
     * @param protection the protection the node's sessions use.
     * @param threadName the warm-up thread's name.
     */
    public static void warmUpOnce(final FrameProtection protection, final String threadName)
    {
        if (!WARMED.add(protection))
        {
            return;
        }
        final Thread thread = new Thread(() -> warmUp(protection), threadName);
        thread.setDaemon(true);
        thread.setPriority(Thread.MIN_PRIORITY);
        thread.start();
    }

    /**
     * Runs the warm-up on the calling thread.
     *
     * @param protection the protection to warm up.
     */
    public static void warmUp(final FrameProtection protection)
    {
        final byte[] key = new byte[32];
        final Sealer sealer = new Sealer(protection, key, 1);
        final Opener opener = new Opener(protection, key, 1);
        final UnsafeBuffer body = new UnsafeBuffer(new byte[64]);
        final UnsafeBuffer sealed = new UnsafeBuffer(new byte[64 + OVERHEAD]);
        final UnsafeBuffer opened = new UnsafeBuffer(new byte[64 + OVERHEAD]);
        for (int i = 0; i < WARM_UP_ROUNDS; i++)
        {
            final int total = sealer.seal(DATA, 11, body, 0, 48, sealed);
            sealer.sent(DATA);
            opener.open(DATA, 11, sealed, 0, total, opened);
        }
    }

    /**
     * The key id of a sealed message, or -1 if the message is not sealed (too short, or no marker).
     *
     * @param buffer the message's bytes.
     * @param offset where it starts.
     * @param length its length.
     * @return 0..65535, or -1.
     */
    public static int keyId(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < OVERHEAD || (buffer.getShort(offset, ByteOrder.LITTLE_ENDIAN) & 0xFFFF) != MARKER)
        {
            return -1;
        }
        return buffer.getShort(offset + 2, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
    }

    private static Cipher newCipher()
    {
        try
        {
            return Cipher.getInstance(AES_GCM);
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException(AES_GCM + " is not available", ex); // every Java SE runtime has it
        }
    }

    private static void nonce(final byte[] nonce, final int streamId, final long count)
    {
        for (int i = 0; i < Integer.BYTES; i++)
        {
            nonce[i] = (byte)(streamId >>> (Integer.SIZE - Byte.SIZE * (i + 1)));
        }
        for (int i = 0; i < Long.BYTES; i++)
        {
            nonce[Integer.BYTES + i] = (byte)(count >>> (Long.SIZE - Byte.SIZE * (i + 1)));
        }
    }

    /** One direction's key, as an HMAC or as an AES-GCM cipher, and its id. */
    private abstract static class Keyed
    {
        final FrameProtection protection;
        final int keyId;
        /** AUTHENTICATED: the HMAC; else null. */
        final Hmac256 mac;
        /** ENCRYPTED: the cipher and its key; else null. */
        final Cipher cipher;
        final SecretKeySpec aesKey;
        final byte[] nonce = new byte[12];

        Keyed(final FrameProtection protection, final byte[] key, final int keyId)
        {
            this.protection = protection;
            this.keyId = keyId;
            final boolean encrypted = protection == FrameProtection.ENCRYPTED;
            this.mac = encrypted ? null : new Hmac256(key);
            this.cipher = encrypted ? newCipher() : null;
            this.aesKey = encrypted ? new SecretKeySpec(key, "AES") : null;
        }
    }

    /** Seals what this node sends in one session. */
    public static final class Sealer extends Keyed
    {
        private final long[] nextSequence = {1, 1, 1};
        private long sealCount;

        /**
         * A sealer.
         *
         * @param protection how messages are protected.
         * @param key        the direction's key; copied into the MAC or cipher.
         * @param keyId      the key's public id, written into every header.
         */
        public Sealer(final FrameProtection protection, final byte[] key, final int keyId)
        {
            super(protection, key, keyId);
        }

        /**
         * Seals a message into {@code out} (from offset 0), with the next sequence number of its stream; that
         * number is used up only by {@link #sent}, so a message pushed back is sealed again, unchanged or grown,
         * with the same number (only what reaches the wire counts).
         *
         * @param stream   {@link #CONTROL}, {@link #DATA} or {@link #BULK}.
         * @param streamId the Aeron stream id, bound into the tag.
         * @param body     the message.
         * @param offset   where it starts.
         * @param length   its length.
         * @param out      where the sealed message goes; backed by an array of at least length + OVERHEAD bytes.
         * @return the sealed message's length.
         */
        public int seal(final int stream, final int streamId, final DirectBuffer body, final int offset,
            final int length, final UnsafeBuffer out)
        {
            final long count = sealCount++;
            out.putShort(0, (short)MARKER, ByteOrder.LITTLE_ENDIAN);
            out.putShort(2, (short)keyId, ByteOrder.LITTLE_ENDIAN);
            out.putLong(4, count, ByteOrder.LITTLE_ENDIAN);
            out.putLong(12, nextSequence[stream], ByteOrder.LITTLE_ENDIAN);
            out.putBytes(HEADER, body, offset, length);
            final byte[] bytes = out.byteArray();
            final int at = out.wrapAdjustment();
            if (mac != null)
            {
                mac.updateInt(streamId).update(bytes, at, HEADER + length).finish(bytes, at + HEADER + length, TAG);
                return length + OVERHEAD;
            }
            nonce(nonce, streamId, count);
            try
            {
                cipher.init(Cipher.ENCRYPT_MODE, aesKey, new GCMParameterSpec(TAG * Byte.SIZE, nonce));
                cipher.updateAAD(bytes, at, HEADER);
                return HEADER + cipher.doFinal(bytes, at + HEADER, length, bytes, at + HEADER);
            }
            catch (final GeneralSecurityException ex)
            {
                throw new IllegalStateException("AES-GCM failed to seal a message of " + length + " bytes", ex);
            }
        }

        /**
         * The message last sealed on the stream reached the wire: its sequence number is used.
         *
         * @param stream the stream's index.
         */
        public void sent(final int stream)
        {
            nextSequence[stream]++;
        }

        /**
         * How this sealer protects messages.
         *
         * @return the protection.
         */
        public FrameProtection protection()
        {
            return protection;
        }
    }

    /** Opens what the peer sends in one session. */
    public static final class Opener extends Keyed
    {
        private final byte[] tag = new byte[TAG];
        private final long[] expected = {1, 1, 1};

        /**
         * An opener.
         *
         * @param protection how messages are protected.
         * @param key        the peer's sealing key; copied into the MAC or cipher.
         * @param keyId      the key's public id.
         */
        public Opener(final FrameProtection protection, final byte[] key, final int keyId)
        {
            super(protection, key, keyId);
        }

        /**
         * The id of the key this opener opens.
         *
         * @return the id.
         */
        public int keyId()
        {
            return keyId;
        }

        /**
         * Verifies a sealed message of this opener's key (see {@link FrameSeal#keyId}) and, if it is the next on
         * its stream, leaves its body (decrypted if need be) in {@code in} at offset {@link #HEADER}.
         *
         * @param stream   {@link #CONTROL}, {@link #DATA} or {@link #BULK}.
         * @param streamId the Aeron stream id it arrived on.
         * @param message  the sealed message, at least {@link #OVERHEAD} bytes.
         * @param offset   where it starts.
         * @param length   its length.
         * @param in       where the body goes; backed by an array of at least {@code length} bytes.
         * @return the body's length, or {@link #BAD_TAG}, {@link #REPLAYED} or {@link #GAP}.
         */
        public int open(final int stream, final int streamId, final DirectBuffer message, final int offset,
            final int length, final UnsafeBuffer in)
        {
            final int bodyLength = length - OVERHEAD;
            message.getBytes(offset, in, 0, length);
            final byte[] bytes = in.byteArray();
            final int at = in.wrapAdjustment();
            final long sequence = in.getLong(12, ByteOrder.LITTLE_ENDIAN);
            if (mac != null)
            {
                mac.updateInt(streamId).update(bytes, at, HEADER + bodyLength).finish(tag, 0, TAG);
                if (!Hmac256.equalsConstantTime(tag, 0, bytes, at + HEADER + bodyLength, TAG))
                {
                    return BAD_TAG;
                }
            }
            else
            {
                nonce(nonce, streamId, in.getLong(4, ByteOrder.LITTLE_ENDIAN));
                try
                {
                    cipher.init(Cipher.DECRYPT_MODE, aesKey, new GCMParameterSpec(TAG * Byte.SIZE, nonce));
                    cipher.updateAAD(bytes, at, HEADER);
                    cipher.doFinal(bytes, at + HEADER, bodyLength + TAG, bytes, at + HEADER);
                }
                catch (final GeneralSecurityException ex)
                {
                    return BAD_TAG; // AEADBadTagException: forged, damaged or of another key
                }
            }
            final long next = expected[stream];
            if (sequence < next)
            {
                return REPLAYED;
            }
            if (sequence > next)
            {
                return GAP;
            }
            expected[stream] = next + 1;
            return bodyLength;
        }
    }
}
