package io.troupe.serialization;

import io.troupe.actor.EventTypes;
import io.troupe.actor.MailboxCollapsed;
import io.troupe.actor.NodeConnected;
import io.troupe.actor.Poison;
import io.troupe.actor.Undelivered;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EventCodecRegistryTest
{
    private static final int FILL_TYPE = EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 1);
    private static final int TICK_TYPE = EventTypes.typeId(EventTypes.MAX_SPACE, 0xFFFF);

    record Fill(long orderId)
    {
    }

    record Tick(int seq)
    {
    }

    private static final RecordCodec<Fill> FILL = RecordCodec.of(FILL_TYPE, "orders.Fill", Fill.class,
        (out, fill) -> out.writeLong(fill.orderId()), in -> new Fill(in.readLong()));
    private static final RecordCodec<Tick> TICK = RecordCodec.of(TICK_TYPE, "feed.Tick", Tick.class,
        (out, tick) -> out.writeInt(tick.seq()), in -> new Tick(in.readInt()));

    @Test
    void looksUpByTypeIdAndByExactClass()
    {
        final EventCodecRegistry registry = EventCodecRegistry.builder().withTroupeCodecs().register(FILL)
            .register(TICK).build();

        assertThat(registry.codec(FILL_TYPE)).isSameAs(FILL);
        assertThat(registry.codec(TICK_TYPE)).isSameAs(TICK);
        assertThat(registry.codec(Undelivered.TYPE)).isSameAs(TroupeCodecs.UNDELIVERED);
        assertThat(registry.codec(NodeConnected.TYPE)).isSameAs(TroupeCodecs.NODE_CONNECTED);
        assertThat(registry.codec(EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 2))).isNull();
        final EventCodec<Fill> byClass = registry.codecFor(Fill.class);
        assertThat(byClass).isSameAs(FILL);
        assertThat(registry.codecFor(Poison.class)).isSameAs(TroupeCodecs.POISON);
        assertThat(registry.codecFor(Record.class)).as("exact class only, not a supertype").isNull();
        assertThat(registry.codecFor(String.class)).isNull();
        assertThat(registry.size()).isEqualTo(TroupeCodecs.ALL.size() + 2);
        assertThat(registry.codecs()).endsWith(FILL, TICK).containsAll(TroupeCodecs.ALL);
        assertThat(registry.toString()).contains("4096:1 (0x10000001)=orders.Fill");
    }

    @Test
    void anEmptyRegistryFindsNothing()
    {
        final EventCodecRegistry registry = EventCodecRegistry.builder().build();

        assertThat(registry.size()).isZero();
        assertThat(registry.codec(Undelivered.TYPE)).isNull();
        assertThat(registry.codecFor(Undelivered.class)).isNull();
    }

    @Test
    void aDuplicateTypeIdNamesBothCodecs()
    {
        final RecordCodec<Tick> clash = RecordCodec.of(FILL_TYPE, "feed.TickV2", Tick.class,
            (out, tick) -> out.writeInt(tick.seq()), in -> new Tick(in.readInt()));
        final EventCodecRegistry.Builder builder = EventCodecRegistry.builder().register(FILL);

        assertThatThrownBy(() -> builder.register(clash))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("event type 4096:1 (0x10000001)")
            .hasMessageContaining("'orders.Fill'")
            .hasMessageContaining("'feed.TickV2'");
    }

    @Test
    void aDuplicateEventClassNamesBothCodecs()
    {
        final RecordCodec<Fill> clash = RecordCodec.of(FILL_TYPE + 1, "orders.FillAgain", Fill.class,
            (out, fill) -> out.writeLong(fill.orderId()), in -> new Fill(in.readLong()));
        final EventCodecRegistry.Builder builder = EventCodecRegistry.builder().register(FILL);

        assertThatThrownBy(() -> builder.register(clash))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("event class " + Fill.class.getName())
            .hasMessageContaining("'orders.Fill'")
            .hasMessageContaining("'orders.FillAgain'");
    }

    @Test
    void troupeCodecsTwiceClash()
    {
        final EventCodecRegistry.Builder builder = EventCodecRegistry.builder().withTroupeCodecs();

        assertThatThrownBy(builder::withTroupeCodecs)
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("'troupe.Undelivered' and 'troupe.Undelivered'");
    }

    @Test
    void applicationCodecsMustUseUserSpaces()
    {
        final RecordCodec<Fill> inSystemSpace = fillCodec(EventTypes.typeId(EventTypes.SPACE_BROKER, 9));
        final RecordCodec<Fill> inReservedSpace = fillCodec(EventTypes.typeId(EventTypes.SPACE_USER_FIRST - 1, 0));
        final RecordCodec<Fill> negative = fillCodec(-1);

        assertThatThrownBy(() -> EventCodecRegistry.builder().register(inSystemSpace))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("codec 'orders.Fill' (type 3:9")
            .hasMessageContaining("is in space 3")
            .hasMessageContaining("spaces 4096..32767")
            .hasMessageContaining("0..4 are Troupe's own: registerSystem");
        assertThatThrownBy(() -> EventCodecRegistry.builder().register(inReservedSpace))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("is in space 4095")
            .hasMessageContaining("spaces 5..4095 are reserved");
        assertThatThrownBy(() -> EventCodecRegistry.builder().register(negative))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("is in space 65535");
    }

    @Test
    void registerSystemTakesOnlyTroupeSpaces()
    {
        final RecordCodec<Fill> broker = fillCodec(EventTypes.typeId(EventTypes.SPACE_BROKER, 9));

        final EventCodecRegistry registry = EventCodecRegistry.builder().registerSystem(broker).build();

        assertThat(registry.codec(broker.typeId())).isSameAs(broker);
        assertThatThrownBy(() -> EventCodecRegistry.builder().registerSystem(FILL))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("registerSystem takes Troupe's spaces 0..4")
            .hasMessageContaining("(spaces 4096..32767) use register");
        assertThatThrownBy(() -> EventCodecRegistry.builder().registerSystem(fillCodec(EventTypes.typeId(5, 0))))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("is in space 5");
    }

    @Test
    void aCodecWithoutNameOrClassIsRejected()
    {
        final EventCodec<Fill> nameless = new ForwardingCodec<>(FILL, "", Fill.class);
        final EventCodec<Fill> classless = new ForwardingCodec<>(FILL, "orders.Fill", null);

        assertThatThrownBy(() -> EventCodecRegistry.builder().register((EventCodec<?>)null))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not be null");
        assertThatThrownBy(() -> EventCodecRegistry.builder().register(nameless))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has no name");
        assertThatThrownBy(() -> EventCodecRegistry.builder().register(classless))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has no event class");
    }

    @Test
    void theRegistryDoesNotChangeWhenItsBuilderDoes()
    {
        final EventCodecRegistry.Builder builder = EventCodecRegistry.builder().register(FILL);
        final EventCodecRegistry first = builder.build();

        builder.register(TICK);
        final EventCodecRegistry second = builder.build();

        assertThat(first.codec(TICK_TYPE)).isNull();
        assertThat(first.codecFor(Tick.class)).isNull();
        assertThat(first.size()).isEqualTo(1);
        assertThat(second.codec(TICK_TYPE)).isSameAs(TICK);
        assertThatThrownBy(() -> first.codecs().add(TICK)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void mailboxCollapsedIsFoundByClass()
    {
        final EventCodecRegistry registry = EventCodecRegistry.builder().withTroupeCodecs().build();

        assertThat(registry.codecFor(MailboxCollapsed.class)).isSameAs(TroupeCodecs.MAILBOX_COLLAPSED);
    }

    private static RecordCodec<Fill> fillCodec(final int typeId)
    {
        return RecordCodec.of(typeId, "orders.Fill", Fill.class,
            (out, fill) -> out.writeLong(fill.orderId()), in -> new Fill(in.readLong()));
    }

    /** A codec with a chosen name and class, to test the registry's checks. */
    private static final class ForwardingCodec<T> implements EventCodec<T>
    {
        private final EventCodec<T> delegate;
        private final String name;
        private final Class<T> eventClass;

        ForwardingCodec(final EventCodec<T> delegate, final String name, final Class<T> eventClass)
        {
            this.delegate = delegate;
            this.name = name;
            this.eventClass = eventClass;
        }

        @Override
        public int typeId()
        {
            return delegate.typeId();
        }

        @Override
        public String name()
        {
            return name;
        }

        @Override
        public Class<T> eventClass()
        {
            return eventClass;
        }

        @Override
        public int encodedLength(final T event)
        {
            return delegate.encodedLength(event);
        }

        @Override
        public int encode(final T event, final MutableDirectBuffer buffer, final int offset)
        {
            return delegate.encode(event, buffer, offset);
        }

        @Override
        public T decode(final DirectBuffer buffer, final int offset, final int length)
        {
            return delegate.decode(buffer, offset, length);
        }
    }
}
