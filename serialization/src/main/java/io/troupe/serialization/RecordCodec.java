package io.troupe.serialization;

import io.troupe.actor.EventTypes;
import io.troupe.actor.MalformedEventException;

import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * A hand-written codec for a record (or any class) of primitives, strings, byte arrays and actor ids: the user
 * writes the fields in order to an {@link EventWriter} and reads them back in the same order from an
 * {@link EventReader}. No reflection; the writer lambda runs once to measure ({@link #encodedLength}) and once to
 * write, so it must write the same fields for the same event both times.
 *
 * <pre>{@code
 * record Fill(long orderId, String venue, ActorId trader) {}
 *
 * static final RecordCodec<Fill> FILL = RecordCodec.of(
 *     EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 1), "orders.Fill", Fill.class,
 *     (out, fill) -> out.writeLong(fill.orderId()).writeString(fill.venue()).writeActorId(fill.trader()),
 *     in -> new Fill(in.readLong(), in.readString(), in.readActorId()));
 * }</pre>
 *
 * <p>Thread safe. Each thread that uses the codec gets its own writer and reader, kept for reuse, so measuring and
 * encoding allocate nothing beyond what the writer lambda does itself; decoding allocates the event. A payload the
 * reader cannot make sense of (truncated, a length out of range, or the reader lambda throwing) is rejected with a
 * {@link MalformedEventException}.
 *
 * @param <T> the event type.
 */
public final class RecordCodec<T> extends StreamCodec<T>
{
    private final BiConsumer<EventWriter, ? super T> writer;
    private final Function<EventReader, ? extends T> reader;

    private RecordCodec(
        final int typeId,
        final String name,
        final Class<T> eventClass,
        final BiConsumer<EventWriter, ? super T> writer,
        final Function<EventReader, ? extends T> reader)
    {
        super(typeId, name, eventClass);
        this.writer = writer;
        this.reader = reader;
    }

    /**
     * Creates a codec.
     *
     * @param typeId     the type id, see {@link EventTypes#typeId}.
     * @param name       a readable name for error messages.
     * @param eventClass the class of the events.
     * @param writer     writes an event's fields, in order.
     * @param reader     reads the fields in the same order and builds the event.
     * @param <T>        the event type.
     * @return the codec.
     * @throws IllegalArgumentException if an argument is null or the name is empty.
     */
    public static <T> RecordCodec<T> of(
        final int typeId,
        final String name,
        final Class<T> eventClass,
        final BiConsumer<EventWriter, ? super T> writer,
        final Function<EventReader, ? extends T> reader)
    {
        if (name == null || name.isEmpty() || eventClass == null || writer == null || reader == null)
        {
            throw new IllegalArgumentException("record codec for type " + EventTypes.describe(typeId) +
                " needs a name, an event class, a writer and a reader");
        }
        return new RecordCodec<>(typeId, name, eventClass, writer, reader);
    }

    @Override
    void writeFields(final EventWriter out, final T event)
    {
        writer.accept(out, event);
    }

    @Override
    T readFields(final EventReader in)
    {
        try
        {
            return reader.apply(in);
        }
        catch (final MalformedEventException ex)
        {
            throw ex;
        }
        catch (final RuntimeException ex)
        {
            throw new MalformedEventException(typeId(), "the reader of codec '" + name() + "' failed: " + ex, ex);
        }
    }

    @Override
    public String toString()
    {
        return "RecordCodec{" + name() + ", type=" + EventTypes.describe(typeId()) + '}';
    }
}
