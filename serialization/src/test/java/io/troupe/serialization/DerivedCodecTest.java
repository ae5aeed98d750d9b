package io.troupe.serialization;

import com.sun.management.ThreadMXBean;
import io.troupe.actor.ActorId;
import io.troupe.actor.ActorRef;
import io.troupe.actor.EventTypes;
import io.troupe.actor.MalformedEventException;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What a {@link DerivedCodec} derives: type ids, fingerprints, what it refuses, and that encoding allocates
 * nothing.
 */
class DerivedCodecTest
{
    record Fill(long orderId, String venue, ActorRef<String> trader)
    {
    }

    /** Same components as {@link Fill} but one renamed: a different shape. */
    record FillRenamed(long orderId, String market, ActorRef<String> trader)
    {
    }

    record Positive(int value)
    {
        Positive
        {
            if (value <= 0)
            {
                throw new IllegalArgumentException("not positive: " + value);
            }
        }
    }

    record HasMap(Map<String, String> tags)
    {
    }

    record Nest(Nest inner)
    {
    }

    enum Colour
    {
        RED, GREEN
    }

    @Test
    void aNameAlwaysDerivesTheSameTypeIdInAUserSpace()
    {
        // pinned: nodes of different versions must keep agreeing on derived ids
        assertThat(DerivedCodec.typeIdOf("orders.Fill")).isEqualTo(DerivedCodec.typeIdOf("orders.Fill"))
            .isEqualTo(PINNED_ORDERS_FILL_ID);
        for (final String name : List.of("a", "orders.Fill", "com.example.Orders$Cancel", "ü"))
        {
            final int space = EventTypes.spaceOf(DerivedCodec.typeIdOf(name));
            assertThat(space).isBetween(EventTypes.SPACE_USER_FIRST, EventTypes.MAX_SPACE);
        }
        assertThat(DerivedCodec.of(Fill.class).typeId()).isEqualTo(DerivedCodec.typeIdOf(Fill.class.getName()));
        assertThat(DerivedCodec.of(Fill.class, "orders.Fill").typeId()).isEqualTo(PINNED_ORDERS_FILL_ID);
        final int explicit = EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 1);
        assertThat(DerivedCodec.of(Fill.class, explicit, "orders.Fill").typeId()).isEqualTo(explicit);
    }

    /** Pinned for good: if a derived id changes, nodes of different versions stop agreeing. */
    static final int PINNED_ORDERS_FILL_ID = 0x6099dedc;

    @Test
    void theFingerprintCoversTheNameAndTheShape()
    {
        final DerivedCodec<Fill> fill = DerivedCodec.of(Fill.class, "orders.Fill");

        assertThat(fill.shape()).isEqualTo(Fill.class.getName() + "(orderId:Long,venue:String,trader:ActorRef)");
        assertThat(DerivedCodec.of(Fill.class, "orders.Fill").fingerprint()).isEqualTo(fill.fingerprint());
        assertThat(DerivedCodec.of(FillRenamed.class, "orders.Fill").fingerprint()).isNotEqualTo(fill.fingerprint());
        assertThat(DerivedCodec.of(Fill.class, "orders.Fill2").fingerprint()).isNotEqualTo(fill.fingerprint());
        assertThat(DerivedCodec.of(Colour.class).shape()).isEqualTo(Colour.class.getName() + "{RED,GREEN}");
    }

    @Test
    void unsupportedTypesAreRefusedNamingTheComponent()
    {
        assertThatThrownBy(() -> DerivedCodec.of(HasMap.class)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining(HasMap.class.getName() + ".tags").hasMessageContaining("java.util.Map");
        assertThatThrownBy(() -> DerivedCodec.of(Object.class)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("java.lang.Object");
        assertThatThrownBy(() -> DerivedCodec.of(Fill.class, "")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void topLevelEnumsStringsAndBoxesRoundTrip()
    {
        assertThat(roundTrip(DerivedCodec.of(Colour.class), Colour.GREEN)).isEqualTo(Colour.GREEN);
        assertThat(roundTrip(DerivedCodec.of(String.class), "héllo")).isEqualTo("héllo");
        assertThat(roundTrip(DerivedCodec.of(Long.class), 42L)).isEqualTo(42L);
        assertThat(roundTrip(DerivedCodec.of(byte[].class), new byte[] {1, 2})).containsExactly(1, 2);
    }

    @Test
    void aConstructorThatRefusesItsComponentsMakesThePayloadMalformed()
    {
        final DerivedCodec<Positive> codec = DerivedCodec.of(Positive.class);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4]);
        buffer.putInt(0, -5, CodecChecks.ORDER);

        assertThatThrownBy(() -> codec.decode(buffer, 0, 4)).isInstanceOf(MalformedEventException.class)
            .hasMessageContaining("not positive: -5");
    }

    @Test
    void bytesLeftOverAndOutOfRangeEnumsAreMalformed()
    {
        final DerivedCodec<Colour> codec = DerivedCodec.of(Colour.class);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[5]);
        buffer.putInt(0, 2, CodecChecks.ORDER);

        assertThatThrownBy(() -> codec.decode(buffer, 0, 4)).isInstanceOf(MalformedEventException.class)
            .hasMessageContaining("enum ordinal 2 out of range 0..1");
        buffer.putInt(0, 1, CodecChecks.ORDER);
        assertThatThrownBy(() -> codec.decode(buffer, 0, 5)).isInstanceOf(MalformedEventException.class)
            .hasMessageContaining("1 bytes left");
    }

    @Test
    void nestingDeeperThanTheLimitIsRefusedNotAStackOverflow()
    {
        final DerivedCodec<Nest> codec = DerivedCodec.of(Nest.class);
        final int depth = 10_000;
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[depth + 1]);
        for (int i = 0; i < depth; i++)
        {
            buffer.putByte(i, (byte)1); // present, present, ... : a hostile chain
        }

        assertThatThrownBy(() -> codec.decode(buffer, 0, depth + 1)).isInstanceOf(MalformedEventException.class)
            .hasMessageContaining("nested more than 64 deep");
        Nest nest = null;
        for (int i = 0; i < 60; i++)
        {
            nest = new Nest(nest);
        }
        assertThat(roundTrip(codec, nest)).isEqualTo(nest);
    }

    @Test
    void aListCountLargerThanThePayloadIsRefusedBeforeItSizesAnything()
    {
        final DerivedCodec<DerivedCodecPropertiesTest.Tree> codec = DerivedCodecPropertiesTest.TREE;
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[8]);
        buffer.putInt(0, -1, CodecChecks.ORDER); // null label
        buffer.putInt(4, Integer.MAX_VALUE, CodecChecks.ORDER);

        assertThatThrownBy(() -> codec.decode(buffer, 0, 8)).isInstanceOf(MalformedEventException.class)
            .hasMessageContaining("list of " + Integer.MAX_VALUE + " elements");
    }

    @Test
    void theRegistryRegistersADerivedCodecByClassAndRefusesTwoWithOneId()
    {
        final EventCodecRegistry codecs = EventCodecRegistry.builder().withTroupeCodecs().register(Fill.class).build();

        assertThat(codecs.codecFor(Fill.class)).isInstanceOf(DerivedCodec.class);
        assertThat(codecs.codec(DerivedCodec.typeIdOf(Fill.class.getName()))).isSameAs(codecs.codecFor(Fill.class));
        assertThatThrownBy(() -> EventCodecRegistry.builder()
            .register(DerivedCodec.of(Fill.class, "same"))
            .register(DerivedCodec.of(FillRenamed.class, "same")))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("claimed by two codecs");
    }

    @Test
    void encodingAllocatesNothing()
    {
        final DerivedCodec<Fill> codec = DerivedCodec.of(Fill.class);
        final Fill fill = new Fill(7, "XLON", ActorRef.of(ActorId.of(3, 4, 5)));
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        final ThreadMXBean threads = (ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long thread = Thread.currentThread().getId();
        long sink = 0;
        for (int i = 0; i < 200_000; i++)
        {
            sink += codec.encode(fill, buffer, 0) + codec.encodedLength(fill);
        }
        final long before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < 200_000; i++)
        {
            sink += codec.encode(fill, buffer, 0) + codec.encodedLength(fill);
        }
        final long allocated = threads.getThreadAllocatedBytes(thread) - before;

        assertThat(sink).isPositive();
        assertThat(allocated).as("bytes allocated by 200,000 encodes").isLessThan(10_000);
    }

    private static <T> T roundTrip(final DerivedCodec<T> codec, final T value)
    {
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(16);
        final int written = codec.encode(value, buffer, 0);
        assertThat(written).isEqualTo(codec.encodedLength(value));
        return codec.decode(buffer, 0, written);
    }
}
