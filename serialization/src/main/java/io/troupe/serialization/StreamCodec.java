package io.troupe.serialization;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A codec that writes an event's fields to an {@link EventWriter} and reads them back from an {@link EventReader}
 * ({@link RecordCodec}, {@link DerivedCodec}): measuring, encoding and decoding borrow this thread's writer or reader
 * ({@link CodecScratch}), so that only decoding allocates, the event.
 *
 * @param <T> the event type.
 */
abstract class StreamCodec<T> extends CodecIdentity<T>
{
    private final CodecScratch scratch = new CodecScratch();

    StreamCodec(final int typeId, final String name, final Class<T> eventClass)
    {
        super(typeId, name, eventClass);
    }

    /** Writes the event's fields, the same ones whether the writer measures or writes. */
    abstract void writeFields(EventWriter out, T event);

    /** Reads an event from a reader wrapped around exactly its payload. */
    abstract T readFields(EventReader in);

    @Override
    public final int encodedLength(final T event)
    {
        final CodecScratch.Slot slot = scratch.slot();
        final EventWriter out = slot.borrowWriter();
        try
        {
            writeFields(out.measure(), event);
            return out.length();
        }
        finally
        {
            slot.giveBack(out);
        }
    }

    @Override
    public final int encode(final T event, final MutableDirectBuffer buffer, final int offset)
    {
        final CodecScratch.Slot slot = scratch.slot();
        final EventWriter out = slot.borrowWriter();
        try
        {
            writeFields(out.wrap(buffer, offset), event);
            return out.length();
        }
        finally
        {
            slot.giveBack(out);
        }
    }

    @Override
    public final T decode(final DirectBuffer buffer, final int offset, final int length)
    {
        final CodecScratch.Slot slot = scratch.slot();
        final EventReader in = slot.borrowReader();
        try
        {
            return readFields(in.wrap(typeId(), buffer, offset, length));
        }
        finally
        {
            slot.giveBack(in);
        }
    }
}
