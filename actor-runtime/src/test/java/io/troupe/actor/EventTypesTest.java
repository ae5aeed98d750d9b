package io.troupe.actor;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EventTypesTest
{
    @Test
    void typeIdIsSpaceThenIndex()
    {
        assertThat(EventTypes.typeId(0, 0)).isZero();
        assertThat(EventTypes.typeId(1, 2)).isEqualTo(0x1_0002);
        assertThat(EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 0xFFFF)).isEqualTo((4096 << 16) | 0xFFFF);
        assertThat(EventTypes.typeId(EventTypes.MAX_SPACE, 0xFFFF)).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void spaceOfRoundTrips()
    {
        final int[] spaces = {EventTypes.SPACE_SYSTEM, EventTypes.SPACE_INTERCONNECT, EventTypes.SPACE_REGISTRY,
            EventTypes.SPACE_BROKER, EventTypes.SPACE_MEMQUOTA, EventTypes.SPACE_USER_FIRST, EventTypes.MAX_SPACE};
        final int[] indexes = {0, 1, 0x7FFF, 0x8000, 0xFFFF};

        for (final int space : spaces)
        {
            for (final int index : indexes)
            {
                final int typeId = EventTypes.typeId(space, index);

                assertThat(EventTypes.spaceOf(typeId)).isEqualTo(space);
                assertThat(typeId & 0xFFFF).isEqualTo(index);
                assertThat(typeId).isNotNegative();
            }
        }
    }

    @Test
    void systemSpacesAreBelowTheUserSpaces()
    {
        assertThat(EventTypes.SPACE_MEMQUOTA).isLessThan(EventTypes.SPACE_USER_FIRST);
        assertThat(EventTypes.SPACE_USER_FIRST).isLessThanOrEqualTo(EventTypes.MAX_SPACE);
    }

    @Test
    void spaceOutOfRangeIsRejected()
    {
        assertThatThrownBy(() -> EventTypes.typeId(-1, 0))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("event space -1")
            .hasMessageContaining(String.valueOf(EventTypes.MAX_SPACE));
        assertThatThrownBy(() -> EventTypes.typeId(EventTypes.MAX_SPACE + 1, 0))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("event space " + (EventTypes.MAX_SPACE + 1));
    }

    @Test
    void indexOutOfRangeIsRejected()
    {
        assertThatThrownBy(() -> EventTypes.typeId(1, -1))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("event index -1")
            .hasMessageContaining("0..65535");
        assertThatThrownBy(() -> EventTypes.typeId(1, 0x1_0000))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("event index 65536");
    }

    @Test
    void describeShowsSpaceIndexAndHex()
    {
        assertThat(EventTypes.describe(EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 7)))
            .isEqualTo("4096:7 (0x10000007)");
        assertThat(EventTypes.describe(Undelivered.TYPE)).isEqualTo("0:1 (0x1)");
        assertThat(EventTypes.indexOf(EventTypes.typeId(3, 0xFFFF))).isEqualTo(0xFFFF);
    }

    @Test
    void troupeEventsHaveDistinctIdsInTheirSpaces()
    {
        assertThat(EventTypes.spaceOf(NodeConnected.TYPE)).isEqualTo(EventTypes.SPACE_INTERCONNECT);
        assertThat(EventTypes.spaceOf(NodeDisconnected.TYPE)).isEqualTo(EventTypes.SPACE_INTERCONNECT);
        assertThat(EventTypes.indexOf(NodeConnected.TYPE)).isEqualTo(1);
        assertThat(EventTypes.indexOf(NodeDisconnected.TYPE)).isEqualTo(2);
        assertThat(new int[] {Undelivered.TYPE, Poison.TYPE, MailboxCollapsed.TYPE, NodeConnected.TYPE,
            NodeDisconnected.TYPE}).doesNotHaveDuplicates();
    }
}
