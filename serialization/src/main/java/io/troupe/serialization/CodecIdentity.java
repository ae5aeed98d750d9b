package io.troupe.serialization;

/**
 * What names a codec, shared by this package's codecs: its type id, its name and the class of its events.
 *
 * @param <T> the event type.
 */
abstract class CodecIdentity<T> implements EventCodec<T>
{
    private final int typeId;
    private final String name;
    private final Class<T> eventClass;

    CodecIdentity(final int typeId, final String name, final Class<T> eventClass)
    {
        this.typeId = typeId;
        this.name = name;
        this.eventClass = eventClass;
    }

    @Override
    public final int typeId()
    {
        return typeId;
    }

    @Override
    public final String name()
    {
        return name;
    }

    @Override
    public final Class<T> eventClass()
    {
        return eventClass;
    }
}
