package io.troupe.serialization.wire;

import io.troupe.actor.EventTypes;
import io.troupe.serialization.DerivedCodec;
import io.troupe.serialization.EventCodecRegistry;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link TypeTable}: what a node announces and what it refuses. */
class TypeTableTest
{
    record Fill(long orderId, String venue)
    {
    }

    record FillV2(long orderId, String venue, int quantity)
    {
    }

    record Cancel(long orderId)
    {
    }

    private static EventCodecRegistry.Builder base()
    {
        return EventCodecRegistry.builder().withTroupeCodecs();
    }

    @Test
    void onlyApplicationTypesAreAnnouncedInTypeIdOrder()
    {
        final EventCodecRegistry codecs = base().register(Fill.class).register(Cancel.class).build();

        final byte[] table = TypeTable.encode(codecs);

        assertThat(table).hasSize(2 * TypeTable.ENTRY_BYTES);
        final UnsafeBuffer buffer = new UnsafeBuffer(table);
        final int first = buffer.getInt(0, ByteOrder.LITTLE_ENDIAN);
        final int second = buffer.getInt(8, ByteOrder.LITTLE_ENDIAN);
        assertThat(first).isLessThan(second);
        assertThat(EventTypes.spaceOf(first)).isGreaterThanOrEqualTo(EventTypes.SPACE_USER_FIRST);
        assertThat(TypeTable.encode(base().build())).isEmpty();
    }

    @Test
    void identicalOrOneSidedTypesAgreeAndAnotherShapeUnderOneIdConflicts()
    {
        final EventCodecRegistry ours = base().register(DerivedCodec.of(Fill.class, "orders.Fill")).build();
        final EventCodecRegistry same = base().register(DerivedCodec.of(Fill.class, "orders.Fill")).build();
        final EventCodecRegistry more = base().register(DerivedCodec.of(Fill.class, "orders.Fill"))
            .register(Cancel.class).build();
        final EventCodecRegistry other = base().register(DerivedCodec.of(FillV2.class, "orders.Fill")).build();

        assertThat(TypeTable.conflicts(ours, TypeTable.encode(same), 2)).isNull();
        assertThat(TypeTable.conflicts(ours, TypeTable.encode(more), 2)).as("a type only the peer has").isNull();
        assertThat(TypeTable.conflicts(more, TypeTable.encode(ours), 2)).as("a type only we have").isNull();
        assertThat(TypeTable.conflicts(ours, new byte[0], 2)).as("a peer that sends no table").isNull();
        assertThat(TypeTable.conflicts(ours, TypeTable.encode(other), 2))
            .startsWith("1 event type differ in name or shape: type ")
            .contains(EventTypes.describe(DerivedCodec.typeIdOf("orders.Fill")))
            .contains("'orders.Fill'").contains("node 2 binds it");
    }

    @Test
    void aTableThatIsNotWholeEntriesIsMalformed()
    {
        assertThat(TypeTable.conflicts(base().build(), new byte[7], 3))
            .isEqualTo("its type table of 7 bytes is malformed");
    }
}
