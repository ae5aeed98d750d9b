package io.troupe.interconnect.seal;

import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * HMAC-SHA256 (RFC 2104) over the JDK's SHA-256, for one key, reused for every message and allocating nothing
 * per message: {@link javax.crypto.Mac#doFinal(byte[], int)} allocates its result on every call, which the
 * per-frame MAC must not. The construction is the standard one, {@code H((K ^ opad) || H((K ^ ipad) || m))};
 * only the hash comes from the JDK (with its SHA-NI or AVX2 intrinsics where the CPU has them).
 *
 * <p>Not thread safe: one instance per thread (the interconnect agent's).
 */
final class Hmac256
{
    /** Length of a tag, in bytes. */
    static final int LENGTH = 32;
    private static final int BLOCK = 64;

    private final MessageDigest digest;
    private final byte[] innerPad = new byte[BLOCK];
    private final byte[] outerPad = new byte[BLOCK];
    private final byte[] inner = new byte[LENGTH];
    private final byte[] scratch = new byte[Long.BYTES];
    private boolean started;

    /**
     * An HMAC for one key.
     *
     * @param key any length; a key longer than a block is hashed first, as RFC 2104 says. Not kept.
     */
    Hmac256(final byte[] key)
    {
        digest = sha256();
        final byte[] k = key.length > BLOCK ? digest.digest(key) : key;
        for (int i = 0; i < BLOCK; i++)
        {
            final byte b = i < k.length ? k[i] : 0;
            innerPad[i] = (byte)(b ^ 0x36);
            outerPad[i] = (byte)(b ^ 0x5c);
        }
    }

    static MessageDigest sha256()
    {
        try
        {
            return MessageDigest.getInstance("SHA-256");
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("SHA-256 is not available", ex); // every Java SE runtime has it
        }
    }

    private void start()
    {
        if (!started)
        {
            digest.update(innerPad);
            started = true;
        }
    }

    Hmac256 update(final byte[] bytes, final int offset, final int length)
    {
        start();
        digest.update(bytes, offset, length);
        return this;
    }

    Hmac256 update(final byte[] bytes)
    {
        return update(bytes, 0, bytes.length);
    }

    /** Big-endian, as the handshake's MAC inputs are. */
    Hmac256 updateInt(final int value)
    {
        for (int i = 0; i < Integer.BYTES; i++)
        {
            scratch[i] = (byte)(value >>> (Integer.SIZE - Byte.SIZE * (i + 1)));
        }
        return update(scratch, 0, Integer.BYTES);
    }

    Hmac256 updateLong(final long value)
    {
        for (int i = 0; i < Long.BYTES; i++)
        {
            scratch[i] = (byte)(value >>> (Long.SIZE - Byte.SIZE * (i + 1)));
        }
        return update(scratch, 0, Long.BYTES);
    }

    /** A length-prefixed field: no two different sequences of fields give the same bytes. */
    Hmac256 updateField(final byte[] bytes)
    {
        updateInt(bytes.length);
        return update(bytes);
    }

    /**
     * Ends the message: writes its tag, or the first {@code length} bytes of it, and starts afresh for the next.
     *
     * @param out    where the tag goes.
     * @param offset at which offset.
     * @param length how many of its 32 bytes (a truncated tag, RFC 2104 section 5).
     */
    void finish(final byte[] out, final int offset, final int length)
    {
        start();
        try
        {
            digest.digest(inner, 0, LENGTH);
            digest.update(outerPad);
            digest.update(inner);
            if (length == LENGTH)
            {
                digest.digest(out, offset, LENGTH);
            }
            else
            {
                digest.digest(inner, 0, LENGTH);
                System.arraycopy(inner, 0, out, offset, length);
            }
        }
        catch (final DigestException ex)
        {
            throw new IllegalStateException("digest of " + LENGTH + " bytes did not fit", ex);
        }
        finally
        {
            started = false;
        }
    }

    /** Ends the message and returns its whole tag, newly allocated (for keys and proofs, not per frame). */
    byte[] finish()
    {
        final byte[] out = new byte[LENGTH];
        finish(out, 0, LENGTH);
        return out;
    }

    /** Forgets the key material this instance holds (the digest's state is reset by each finish). */
    void destroy()
    {
        Arrays.fill(innerPad, (byte)0);
        Arrays.fill(outerPad, (byte)0);
        Arrays.fill(inner, (byte)0);
        digest.reset();
        started = false;
    }

    /**
     * Whether two byte ranges are equal, in time that does not depend on where they differ.
     *
     * @return true if equal.
     */
    static boolean equalsConstantTime(final byte[] a, final int aOffset, final byte[] b, final int bOffset,
        final int length)
    {
        int difference = 0;
        for (int i = 0; i < length; i++)
        {
            difference |= a[aOffset + i] ^ b[bOffset + i];
        }
        return difference == 0;
    }
}
