package io.troupe.actor;

import org.agrona.DirectBuffer;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A test decoder of ASCII text payloads that records every call and the thread it ran on.
 */
final class CountingDecoder implements EventDecoder<String>
{
    final List<String> threads = new CopyOnWriteArrayList<>();
    private final int typeId;

    CountingDecoder(final int typeId)
    {
        this.typeId = typeId;
    }

    @Override
    public int typeId()
    {
        return typeId;
    }

    @Override
    public String decode(final DirectBuffer buffer, final int offset, final int length)
    {
        threads.add(Thread.currentThread().getName());
        if (length > 0 && buffer.getByte(offset) == '!')
        {
            throw new MalformedEventException(typeId, "payload starts with '!'");
        }
        return buffer.getStringWithoutLengthAscii(offset, length);
    }

    int calls()
    {
        return threads.size();
    }

    static byte[] ascii(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
