package io.troupe.node;

import io.troupe.actor.ActorSystem;
import io.troupe.actor.EventTypes;
import io.troupe.actor.ServiceId;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.RecordCodec;

/** The tests' one event type that crosses nodes, and an echo service that answers it. */
final class TestEvents
{
    static final int NOTE = EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 1);
    static final ServiceId ECHO = ServiceId.of(0, "echo");

    /** A line of text; the echo service answers with the text prefixed by {@code "echo: "}. */
    record Note(String text)
    {
    }

    static final EventCodec<Note> NOTE_CODEC = RecordCodec.of(NOTE, "test.Note", Note.class,
        (out, note) -> out.writeString(note.text()), in -> new Note(in.readString()));

    private TestEvents()
    {
    }

    /** Registers the echo service. */
    static void registerEcho(final ActorSystem system)
    {
        system.registerService(ECHO, system.register((ctx, envelope) ->
        {
            if (envelope.event() instanceof Note note && !envelope.sender().isNone())
            {
                ctx.send(envelope.sender(), new Note("echo: " + note.text()), NOTE, 0, envelope.cookie());
            }
        }));
    }
}
