package io.troupe.actor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ActorIdTest
{
    @Test
    void rawLayoutIsBitExact()
    {
        final ActorId id = ActorId.of(3, 1729L, 17, 2);

        assertThat(id.raw1()).isEqualTo(1729L);
        assertThat(id.raw2()).isEqualTo((17L << 32) | (2L << 20) | 3L);
        assertThat(id.raw2() & (1L << 31)).isZero();
    }

    @Test
    void rawLayoutAtTheLimitsOfEveryField()
    {
        final ActorId id = ActorId.of(ActorId.MAX_NODE_ID, -1L, -1, ActorId.MAX_POOL_ID);

        assertThat(id.raw1()).isEqualTo(0xFFFF_FFFF_FFFF_FFFFL);
        // every bit but the service bit
        assertThat(id.raw2()).isEqualTo(0xFFFF_FFFF_7FFF_FFFFL);
        assertThat(id.isService()).isFalse();
    }

    @Test
    void fieldsDoNotBleedIntoEachOther()
    {
        final ActorId nodeOnly = ActorId.of(ActorId.MAX_NODE_ID, 0, 0, 0);
        assertThat(nodeOnly.raw2()).isEqualTo(0xF_FFFFL);
        assertThat(nodeOnly.poolId()).isZero();
        assertThat(nodeOnly.hint()).isZero();

        final ActorId poolOnly = ActorId.of(0, 0, 0, ActorId.MAX_POOL_ID);
        assertThat(poolOnly.raw2()).isEqualTo(0x7FFL << 20);
        assertThat(poolOnly.nodeId()).isZero();
        assertThat(poolOnly.hint()).isZero();
        assertThat(poolOnly.isService()).isFalse();

        final ActorId hintOnly = ActorId.of(0, 0, -1, 0);
        assertThat(hintOnly.raw2()).isEqualTo(0xFFFF_FFFF_0000_0000L);
        assertThat(hintOnly.nodeId()).isZero();
        assertThat(hintOnly.poolId()).isZero();
        assertThat(hintOnly.isService()).isFalse();
    }

    @Test
    void accessorsReturnWhatWasPutIn()
    {
        final ActorId id = ActorId.of(12345, 0x8000_0000_0000_0001L, 0x8000_0001, 1000);

        assertThat(id.nodeId()).isEqualTo(12345);
        assertThat(id.localId()).isEqualTo(0x8000_0000_0000_0001L);
        assertThat(id.hint()).isEqualTo(0x8000_0001);
        assertThat(id.poolId()).isEqualTo(1000);
        assertThat(id.isService()).isFalse();
        assertThat(id.isNone()).isFalse();
        assertThat(id.raw1()).isEqualTo(id.localId());
    }

    @Test
    void ofWithoutPoolIsPoolZero()
    {
        final ActorId id = ActorId.of(7, 99L, 5);

        assertThat(id.poolId()).isZero();
        assertThat(id).isEqualTo(ActorId.of(7, 99L, 5, 0));
        assertThat(id.raw2()).isEqualTo((5L << 32) | 7L);
    }

    @Test
    void rejectsNodeIdBelowRange()
    {
        assertThatThrownBy(() -> ActorId.of(-1, 1L, 1))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("node id -1")
            .hasMessageContaining(String.valueOf(ActorId.MAX_NODE_ID));
    }

    @Test
    void rejectsNodeIdAboveRange()
    {
        assertThatThrownBy(() -> ActorId.of(ActorId.MAX_NODE_ID + 1, 1L, 1, 0))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("node id " + (ActorId.MAX_NODE_ID + 1));
    }

    @Test
    void rejectsPoolIdBelowRange()
    {
        assertThatThrownBy(() -> ActorId.of(1, 1L, 1, -1))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("pool id -1")
            .hasMessageContaining(String.valueOf(ActorId.MAX_POOL_ID));
    }

    @Test
    void rejectsPoolIdAboveRange()
    {
        assertThatThrownBy(() -> ActorId.of(1, 1L, 1, ActorId.MAX_POOL_ID + 1))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("pool id " + (ActorId.MAX_POOL_ID + 1));
    }

    @Test
    void limitsAreTheFieldWidths()
    {
        assertThat(ActorId.MAX_NODE_ID).isEqualTo(1_048_575);
        assertThat(ActorId.MAX_POOL_ID).isEqualTo(2047);
    }

    @Test
    void equalsAndHashCodeFollowTheRawValues()
    {
        final ActorId a = ActorId.of(3, 1729L, 17, 2);
        final ActorId b = ActorId.of(3, 1729L, 17, 2);
        final ActorId fromRaw = ActorId.fromRaw(a.raw1(), a.raw2());

        assertThat(a).isEqualTo(b).isEqualTo(fromRaw).hasSameHashCodeAs(b).hasSameHashCodeAs(fromRaw);
        assertThat(fromRaw).isEqualTo(a).isNotSameAs(a);
        assertThat(fromRaw).isExactlyInstanceOf(ActorId.class);

        assertThat(a).isNotEqualTo(ActorId.of(4, 1729L, 17, 2));
        assertThat(a).isNotEqualTo(ActorId.of(3, 1730L, 17, 2));
        assertThat(a).isNotEqualTo(ActorId.of(3, 1729L, 18, 2));
        assertThat(a).isNotEqualTo(ActorId.of(3, 1729L, 17, 3));
        assertThat(a).isNotEqualTo(ActorId.of(3, 1729L, 17));
        assertThat(a).isNotEqualTo(null);
        assertThat(a).isNotEqualTo("[3:1729:17:2]");
    }

    @Test
    void hashCodeSpreadsNeighbouringIds()
    {
        final Set<Integer> hashes = new HashSet<>();
        for (int local = 1; local <= 1000; local++)
        {
            hashes.add(ActorId.of(1, local, 1).hashCode());
        }

        assertThat(hashes).hasSize(1000);
    }

    @Test
    void toStringWithoutPool()
    {
        assertThat(ActorId.of(3, 1729L, 17)).hasToString("[3:1729:17]");
        assertThat(ActorId.of(3, 1729L, 17, 0)).hasToString("[3:1729:17]");
    }

    @Test
    void toStringWithPool()
    {
        assertThat(ActorId.of(3, 1729L, 17, 2)).hasToString("[3:1729:17:2]");
    }

    @Test
    void toStringPrintsLocalIdAndHintUnsigned()
    {
        assertThat(ActorId.of(1, -1L, -1)).hasToString("[1:18446744073709551615:4294967295]");
        assertThat(ActorId.of(1, Long.MIN_VALUE, Integer.MIN_VALUE, 5))
            .hasToString("[1:9223372036854775808:2147483648:5]");
    }

    @Test
    void parseRoundTripsEdgeValues()
    {
        final long[] locals = {0L, 1L, 1729L, Long.MAX_VALUE, Long.MIN_VALUE, -1L, 0x8000_0000_0000_0001L};
        final int[] hints = {0, 1, 17, Integer.MAX_VALUE, Integer.MIN_VALUE, -1, 0x8000_0001};
        final int[] nodes = {0, 1, 3, ActorId.MAX_NODE_ID};
        final int[] pools = {0, 1, 2, ActorId.MAX_POOL_ID};

        for (final long local : locals)
        {
            for (final int hint : hints)
            {
                for (final int node : nodes)
                {
                    for (final int pool : pools)
                    {
                        final ActorId id = ActorId.of(node, local, hint, pool);
                        final ActorId parsed = ActorId.parse(id.toString());

                        assertThat(parsed).as(id.toString()).isEqualTo(id);
                        assertThat(parsed.raw1()).isEqualTo(id.raw1());
                        assertThat(parsed.raw2()).isEqualTo(id.raw2());
                    }
                }
            }
        }
    }

    @Test
    void parseRoundTripsRandomValues()
    {
        final Random random = new Random(0x7A0FEL);
        for (int i = 0; i < 10_000; i++)
        {
            final ActorId id = ActorId.of(
                random.nextInt(ActorId.MAX_NODE_ID + 1),
                random.nextLong(),
                random.nextInt(),
                random.nextInt(ActorId.MAX_POOL_ID + 1));

            assertThat(ActorId.parse(id.toString())).as(id.toString()).isEqualTo(id);
        }
    }

    @Test
    void parseAcceptsAnExplicitPoolZero()
    {
        assertThat(ActorId.parse("[3:1729:17:0]")).isEqualTo(ActorId.of(3, 1729L, 17));
    }

    @Test
    void parseReadsTheDocumentedForms()
    {
        assertThat(ActorId.parse("[3:1729:17]")).isEqualTo(ActorId.of(3, 1729L, 17));
        assertThat(ActorId.parse("[3:1729:17:2]")).isEqualTo(ActorId.of(3, 1729L, 17, 2));
        assertThat(ActorId.parse("[0:0:0]")).isEqualTo(ActorId.NONE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "[", "]", "[]", "3:1729:17", "[3:1729:17", "3:1729:17]", "[3]", "[3:1729]",
        "[3:1729:17:2:1]", "(3:1729:17)"})
    void parseRejectsTheWrongShape(final String text)
    {
        assertThatThrownBy(() -> ActorId.parse(text))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("not an actor id")
            .hasMessageContaining(text);
    }

    @Test
    void parseRejectsNull()
    {
        assertThatThrownBy(() -> ActorId.parse(null))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("not an actor id");
    }

    @ParameterizedTest
    @ValueSource(strings = {"[x:1:2]", "[:1:2]", "[3.0:1:2]"})
    void parseRejectsABadNodeId(final String text)
    {
        assertThatThrownBy(() -> ActorId.parse(text))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("bad node id")
            .hasMessageContaining(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"[3:-1:2]", "[3:abc:2]", "[3::2]", "[3:18446744073709551616:2]"})
    void parseRejectsABadLocalId(final String text)
    {
        assertThatThrownBy(() -> ActorId.parse(text))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("bad local id")
            .hasMessageContaining(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"[3:1:-1]", "[3:1:]", "[3:1:4294967296]", "[3:1:h]"})
    void parseRejectsABadHint(final String text)
    {
        assertThatThrownBy(() -> ActorId.parse(text))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("bad hint")
            .hasMessageContaining(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"[3:1:2:x]", "[3:1:2:]"})
    void parseRejectsABadPoolId(final String text)
    {
        assertThatThrownBy(() -> ActorId.parse(text))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("bad pool id")
            .hasMessageContaining(text);
    }

    @Test
    void parseRejectsOutOfRangeNodeAndPool()
    {
        assertThatThrownBy(() -> ActorId.parse("[1048576:1:2]"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("node id 1048576");
        assertThatThrownBy(() -> ActorId.parse("[-1:1:2]"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("node id -1");
        assertThatThrownBy(() -> ActorId.parse("[1:1:2:2048]"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("pool id 2048");
    }

    @Test
    void noneIsAllZero()
    {
        assertThat(ActorId.NONE.isNone()).isTrue();
        assertThat(ActorId.NONE.raw1()).isZero();
        assertThat(ActorId.NONE.raw2()).isZero();
        assertThat(ActorId.NONE.isService()).isFalse();
        assertThat(ActorId.fromRaw(0, 0).isNone()).isTrue();
        assertThat(ActorId.fromRaw(0, 0)).isEqualTo(ActorId.NONE);
    }

    @Test
    void anyNonZeroFieldIsNotNone()
    {
        assertThat(ActorId.of(0, 1L, 0).isNone()).isFalse();
        assertThat(ActorId.of(1, 0L, 0).isNone()).isFalse();
        assertThat(ActorId.of(0, 0L, 1).isNone()).isFalse();
        assertThat(ActorId.of(0, 0L, 0, 1).isNone()).isFalse();
    }

    @Test
    void fromRawWithoutTheServiceBitIsAPlainActorId()
    {
        final ActorId id = ActorId.fromRaw(42L, (9L << 32) | (4L << 20) | 77L);

        assertThat(id).isExactlyInstanceOf(ActorId.class);
        assertThat(id.nodeId()).isEqualTo(77);
        assertThat(id.poolId()).isEqualTo(4);
        assertThat(id.hint()).isEqualTo(9);
        assertThat(id.localId()).isEqualTo(42L);
    }
}
