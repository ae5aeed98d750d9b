package io.troupe.actor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServiceIdTest
{
    private static final long SERVICE_BIT = 1L << 31;
    private static final String TWELVE = "ABCDEFGHIJKL";

    @Test
    void everyLengthFromOneToTwelveRoundTrips()
    {
        for (int length = 1; length <= ServiceId.MAX_NAME_LENGTH; length++)
        {
            final String name = "abcdefghijkl".substring(0, length);
            final ServiceId id = ServiceId.of(5, name);

            assertThat(id.name()).isEqualTo(name);
            assertThat(id.nodeId()).isEqualTo(5);
            assertThat(id.isService()).isTrue();
            assertThat(id.raw2() & SERVICE_BIT).isEqualTo(SERVICE_BIT);
            assertThat(id.poolId()).isZero();
            assertThat(id.isNone()).isFalse();
        }
    }

    @Test
    void nameBytesAreLittleEndianInLocalIdThenHint()
    {
        final ServiceId id = ServiceId.of(5, TWELVE);

        // "ABCDEFGH" little-endian in raw1, "IJKL" in the hint half of raw2
        assertThat(id.raw1()).isEqualTo(0x4847_4645_4443_4241L);
        assertThat(id.raw2()).isEqualTo((0x4C4B_4A49L << 32) | SERVICE_BIT | 5L);
        assertThat(id.hint()).isEqualTo(0x4C4B_4A49);
    }

    @Test
    void shortNameLeavesTheRestZero()
    {
        final ServiceId id = ServiceId.of(0, "ab");

        assertThat(id.raw1()).isEqualTo(0x6261L);
        assertThat(id.raw2()).isEqualTo(SERVICE_BIT);
    }

    @Test
    void everyPrintableAsciiCharacterIsAccepted()
    {
        final StringBuilder all = new StringBuilder();
        for (char c = 0x20; c <= 0x7E; c++)
        {
            all.append(c);
        }
        for (int start = 0; start < all.length(); start += ServiceId.MAX_NAME_LENGTH)
        {
            final String name = all.substring(start, Math.min(all.length(), start + ServiceId.MAX_NAME_LENGTH));
            final ServiceId id = ServiceId.of(1, name);

            assertThat(id.name()).isEqualTo(name);
            assertThat(ActorId.parse(id.toString())).as(id.toString()).isEqualTo(id);
        }
    }

    @Test
    void emptyNameIsRejected()
    {
        assertThatThrownBy(() -> ServiceId.of(1, ""))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("must not be empty");
    }

    @Test
    void nullNameIsRejected()
    {
        assertThatThrownBy(() -> ServiceId.of(1, null))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("must not be empty");
    }

    @Test
    void thirteenCharactersAreRejected()
    {
        final String name = TWELVE + "M";

        assertThatThrownBy(() -> ServiceId.of(1, name))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining(name)
            .hasMessageContaining("13 characters")
            .hasMessageContaining("at most 12");
    }

    @Test
    void nonAsciiIsRejected()
    {
        assertThatThrownBy(() -> ServiceId.of(1, "caf\u00e9"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("not printable ASCII")
            .hasMessageContaining("index 3");
        assertThatThrownBy(() -> ServiceId.of(1, "\u00e9"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("not printable ASCII")
            .hasMessageContaining("index 0");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ab\n", "ab\u0000", "ab\t", "ab\u001f", "ab\u007f"})
    void controlCharactersAreRejected(final String name)
    {
        assertThatThrownBy(() -> ServiceId.of(1, name))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("not printable ASCII")
            .hasMessageContaining("index 2");
    }

    @Test
    void outOfRangeNodeIsRejected()
    {
        assertThatThrownBy(() -> ServiceId.of(-1, "log"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("node id -1");
        assertThatThrownBy(() -> ServiceId.of(ActorId.MAX_NODE_ID + 1, "log"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("node id " + (ActorId.MAX_NODE_ID + 1));
    }

    @Test
    void toStringAndParse()
    {
        final ServiceId logger = ServiceId.of(5, "logger");

        assertThat(logger).hasToString("[5:@logger]");

        final ActorId parsed = ActorId.parse("[5:@logger]");
        assertThat(parsed).isInstanceOf(ServiceId.class).isEqualTo(logger).hasSameHashCodeAs(logger);
        assertThat(((ServiceId)parsed).name()).isEqualTo("logger");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a", "a:b", "x]y", "@", " ", "[1:2:3]", TWELVE, "with space"})
    void parseRoundTripsOddNames(final String name)
    {
        final ServiceId id = ServiceId.of(ActorId.MAX_NODE_ID, name);

        assertThat(ActorId.parse(id.toString())).isEqualTo(id);
    }

    @Test
    void parseRejectsAnEmptyServiceName()
    {
        assertThatThrownBy(() -> ActorId.parse("[5:@]"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("must not be empty");
    }

    @Test
    void parseRejectsATooLongServiceName()
    {
        assertThatThrownBy(() -> ActorId.parse("[5:@" + TWELVE + "M]"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("at most 12");
    }

    @Test
    void onNodeKeepsTheNameAndChangesOnlyTheNode()
    {
        final ServiceId local = ServiceId.of(0, TWELVE);
        final ServiceId remote = local.onNode(ActorId.MAX_NODE_ID);

        assertThat(remote.nodeId()).isEqualTo(ActorId.MAX_NODE_ID);
        assertThat(remote.name()).isEqualTo(TWELVE);
        assertThat(remote.raw1()).isEqualTo(local.raw1());
        assertThat(remote.raw2() & ~0xF_FFFFL).isEqualTo(local.raw2() & ~0xF_FFFFL);
        assertThat(remote).isEqualTo(ServiceId.of(ActorId.MAX_NODE_ID, TWELVE)).isNotEqualTo(local);
        assertThat(remote.onNode(0)).isEqualTo(local);
        assertThat(remote.onNode(7)).isEqualTo(ServiceId.of(7, TWELVE));
    }

    @Test
    void onNodeRejectsOutOfRangeNodes()
    {
        assertThatThrownBy(() -> ServiceId.of(0, "log").onNode(ActorId.MAX_NODE_ID + 1))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("node id");
    }

    @Test
    void fromRawOfAServiceIsAServiceId()
    {
        final ServiceId id = ServiceId.of(9, "registry");
        final ActorId rebuilt = ActorId.fromRaw(id.raw1(), id.raw2());

        assertThat(rebuilt).isInstanceOf(ServiceId.class).isEqualTo(id).hasSameHashCodeAs(id);
        assertThat(rebuilt.isService()).isTrue();
        assertThat(((ServiceId)rebuilt).name()).isEqualTo("registry");
        assertThat(rebuilt).hasToString("[9:@registry]");
    }

    @Test
    void differentNamesAndNodesAreDifferentIds()
    {
        assertThat(ServiceId.of(1, "log")).isNotEqualTo(ServiceId.of(1, "lo"));
        assertThat(ServiceId.of(1, "log")).isNotEqualTo(ServiceId.of(2, "log"));
        assertThat(ServiceId.of(1, "abcdefghIJKL")).isNotEqualTo(ServiceId.of(1, "abcdefghIJK"));
        assertThat(ServiceId.of(1, "log")).isEqualTo(ServiceId.of(1, "log"));
    }

    @Test
    void aServiceIdIsNeverEqualToAnActorIdWithTheSameLowBits()
    {
        final ServiceId service = ServiceId.of(3, "ab");
        final ActorId actor = ActorId.of(3, service.raw1(), service.hint());

        assertThat(actor.raw1()).isEqualTo(service.raw1());
        assertThat(actor).isNotEqualTo(service);
    }
}
