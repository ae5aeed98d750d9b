package io.troupe.serialization;

import org.agrona.MutableDirectBuffer;

/**
 * UTF-8 without allocation: the length of a string's encoding, and the encoding written straight into a buffer.
 * Both agree byte for byte with {@code String.getBytes(UTF_8)}, including its {@code '?'} for a lone surrogate.
 */
final class Utf8
{
    private static final byte REPLACEMENT = '?';

    private Utf8()
    {
    }

    /**
     * Bytes of the UTF-8 encoding of a string.
     */
    static int encodedLength(final String value)
    {
        final int length = value.length();
        int bytes = length;
        for (int i = 0; i < length; i++)
        {
            final char c = value.charAt(i);
            if (c >= 0x80)
            {
                if (c < 0x800)
                {
                    bytes += 1;
                }
                else if (!Character.isSurrogate(c))
                {
                    bytes += 2;
                }
                else if (isPairAt(value, i))
                {
                    bytes += 2; // two chars, four bytes
                    i++;
                }
                // a lone surrogate is replaced by one byte, already counted
            }
        }
        return bytes;
    }

    /**
     * Writes the UTF-8 encoding of a string.
     *
     * @return the number of bytes written.
     */
    static int encode(final String value, final MutableDirectBuffer buffer, final int offset)
    {
        final int length = value.length();
        int p = offset;
        for (int i = 0; i < length; i++)
        {
            final char c = value.charAt(i);
            if (c < 0x80)
            {
                buffer.putByte(p++, (byte)c);
            }
            else if (c < 0x800)
            {
                buffer.putByte(p++, (byte)(0xC0 | (c >>> 6)));
                buffer.putByte(p++, (byte)(0x80 | (c & 0x3F)));
            }
            else if (!Character.isSurrogate(c))
            {
                buffer.putByte(p++, (byte)(0xE0 | (c >>> 12)));
                buffer.putByte(p++, (byte)(0x80 | ((c >>> 6) & 0x3F)));
                buffer.putByte(p++, (byte)(0x80 | (c & 0x3F)));
            }
            else if (isPairAt(value, i))
            {
                final int codePoint = Character.toCodePoint(c, value.charAt(++i));
                buffer.putByte(p++, (byte)(0xF0 | (codePoint >>> 18)));
                buffer.putByte(p++, (byte)(0x80 | ((codePoint >>> 12) & 0x3F)));
                buffer.putByte(p++, (byte)(0x80 | ((codePoint >>> 6) & 0x3F)));
                buffer.putByte(p++, (byte)(0x80 | (codePoint & 0x3F)));
            }
            else
            {
                buffer.putByte(p++, REPLACEMENT);
            }
        }
        return p - offset;
    }

    private static boolean isPairAt(final String value, final int index)
    {
        return Character.isHighSurrogate(value.charAt(index)) &&
            index + 1 < value.length() && Character.isLowSurrogate(value.charAt(index + 1));
    }
}
