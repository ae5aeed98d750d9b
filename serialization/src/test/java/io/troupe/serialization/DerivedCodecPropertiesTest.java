package io.troupe.serialization;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorRef;
import io.troupe.actor.MalformedEventException;
import io.troupe.actor.ServiceId;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Random values of every shape a {@link DerivedCodec} supports round trip with their exact length; random
 * garbage and truncations decode or are rejected as malformed, never anything else.
 */
class DerivedCodecPropertiesTest
{
    enum Side
    {
        BUY, SELL, CROSS
    }

    record Primitives(boolean flag, byte tiny, short small, char letter, int number, long big, float real, double wide)
    {
    }

    record Boxes(Boolean flag, Byte tiny, Short small, Character letter, Integer number, Long big, Float real,
        Double wide)
    {
    }

    record References(String text, byte[] bytes, ActorId actor, ServiceId service, ActorRef<String> ref, Side side)
    {
    }

    record Leg(String venue, long quantity, Side side)
    {
    }

    record Collections(Leg leg, List<Leg> legs, List<String> names, List<List<Integer>> matrix)
    {
    }

    record Everything(Primitives primitives, Boxes boxes, References references, Collections collections)
    {
    }

    record Tree(String label, List<Tree> children)
    {
    }

    static final DerivedCodec<Everything> EVERYTHING = DerivedCodec.of(Everything.class);
    static final DerivedCodec<Tree> TREE = DerivedCodec.of(Tree.class);

    @Property
    void everyShapeRoundTripsWithItsExactLength(
        @ForAll("everything") final Everything event, @ForAll @IntRange(max = 9) final int offset)
    {
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(16);

        final int written = EVERYTHING.encode(event, buffer, offset);

        assertThat(written).isEqualTo(EVERYTHING.encodedLength(event));
        assertThat(EVERYTHING.decode(buffer, offset, written)).usingRecursiveComparison().isEqualTo(event);
    }

    @Property
    void recursiveRecordsRoundTrip(@ForAll("trees") final Tree tree)
    {
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(16);

        final int written = TREE.encode(tree, buffer, 0);

        assertThat(TREE.decode(buffer, 0, written)).isEqualTo(tree);
    }

    @Property
    void garbageDecodesOrIsRejectedAsMalformed(@ForAll final byte[] garbage)
    {
        for (final DerivedCodec<?> codec : List.of(EVERYTHING, TREE))
        {
            try
            {
                codec.decode(new UnsafeBuffer(garbage), 0, garbage.length);
            }
            catch (final MalformedEventException expected)
            {
                assertThat(expected.typeId()).isEqualTo(codec.typeId());
            }
        }
    }

    @Property
    void aTruncatedValueIsAlwaysRejected(@ForAll("everything") final Everything event,
        @ForAll @IntRange(min = 1) final int cut)
    {
        final int full = EVERYTHING.encodedLength(event);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[full]);
        EVERYTHING.encode(event, buffer, 0);
        final int length = full - 1 - (cut % full);

        assertThatThrownBy(() -> EVERYTHING.decode(buffer, 0, length)).isInstanceOf(MalformedEventException.class);
    }

    @Provide
    Arbitrary<Everything> everything()
    {
        return Combinators.combine(primitives(), boxes(), references(), collections()).as(Everything::new);
    }

    private static Arbitrary<Primitives> primitives()
    {
        return Combinators.combine(
            Arbitraries.of(true, false), Arbitraries.bytes(), Arbitraries.shorts(), Arbitraries.chars(),
            Arbitraries.integers(), Arbitraries.longs(), Arbitraries.floats(), Arbitraries.doubles())
            .as(Primitives::new);
    }

    private static Arbitrary<Boxes> boxes()
    {
        return Combinators.combine(
            Arbitraries.of(true, false).injectNull(0.2), Arbitraries.bytes().injectNull(0.2),
            Arbitraries.shorts().injectNull(0.2), Arbitraries.chars().injectNull(0.2),
            Arbitraries.integers().injectNull(0.2), Arbitraries.longs().injectNull(0.2),
            Arbitraries.floats().injectNull(0.2), Arbitraries.doubles().injectNull(0.2))
            .as(Boxes::new);
    }

    private static Arbitrary<References> references()
    {
        final Arbitrary<ActorId> actors = Combinators.combine(
            Arbitraries.integers().between(0, ActorId.MAX_NODE_ID), Arbitraries.longs(), Arbitraries.integers())
            .as((node, local, hint) -> ActorId.of(node, local, hint));
        final Arbitrary<ServiceId> services = Combinators.combine(
            Arbitraries.integers().between(0, ActorId.MAX_NODE_ID),
            Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(ServiceId.MAX_NAME_LENGTH))
            .as(ServiceId::of);
        return Combinators.combine(
            Arbitraries.strings().injectNull(0.2),
            Arbitraries.bytes().array(byte[].class).ofMaxSize(40).injectNull(0.2),
            actors.injectNull(0.2), services.injectNull(0.2),
            actors.map(id -> ActorRef.<String>of(id)).injectNull(0.2), Arbitraries.of(Side.class).injectNull(0.2))
            .as(References::new);
    }

    private static Arbitrary<Leg> legs()
    {
        return Combinators.combine(Arbitraries.strings().ofMaxLength(8).injectNull(0.1), Arbitraries.longs(),
            Arbitraries.of(Side.class)).as(Leg::new);
    }

    private static Arbitrary<Collections> collections()
    {
        return Combinators.combine(
            legs().injectNull(0.2),
            legs().list().ofMaxSize(5).injectNull(0.2),
            Arbitraries.strings().ofMaxLength(6).list().ofMaxSize(5).injectNull(0.2),
            Arbitraries.integers().injectNull(0.1).list().ofMaxSize(4).list().ofMaxSize(4).injectNull(0.2))
            .as(Collections::new);
    }

    @Provide
    Arbitrary<Tree> trees()
    {
        return Arbitraries.recursive(
            () -> Arbitraries.strings().ofMaxLength(4).map(label -> new Tree(label, List.of())),
            child -> Combinators.combine(Arbitraries.strings().ofMaxLength(4), child.list().ofMaxSize(3)).as(Tree::new),
            0, 4);
    }
}
