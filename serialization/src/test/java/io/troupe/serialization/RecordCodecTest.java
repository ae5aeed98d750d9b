package io.troupe.serialization;

import io.troupe.actor.ActorId;
import io.troupe.actor.EventTypes;
import io.troupe.actor.MalformedEventException;
import io.troupe.actor.ServiceId;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

import static io.troupe.serialization.TroupeCodecsTest.roundTrip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecordCodecTest
{
    static final int ALL_KINDS_TYPE = EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 100);
    private static final ActorId ACTOR = ActorId.of(12, 34L, 56, 7);

    /** One field of every kind the writer supports. */
    record AllKinds(byte b, short s, int i, long l, float f, double d, boolean z, String text, byte[] bytes, ActorId id)
    {
        @Override
        public boolean equals(final Object o)
        {
            return o instanceof AllKinds other && b == other.b && s == other.s && i == other.i && l == other.l &&
                Float.floatToRawIntBits(f) == Float.floatToRawIntBits(other.f) &&
                Double.doubleToRawLongBits(d) == Double.doubleToRawLongBits(other.d) && z == other.z &&
                Objects.equals(text, other.text) && Arrays.equals(bytes, other.bytes) &&
                Objects.equals(id, other.id);
        }

        @Override
        public int hashCode()
        {
            return Long.hashCode(l) ^ i;
        }

        @Override
        public String toString()
        {
            return "AllKinds[b=" + b + ", s=" + s + ", i=" + i + ", l=" + l + ", f=" + f + ", d=" + d + ", z=" + z +
                ", text=" + (text == null ? null : text.length() > 40 ? text.length() + " chars" : text) +
                ", bytes=" + (bytes == null ? null : bytes.length + " bytes") + ", id=" + id + ']';
        }
    }

    static final RecordCodec<AllKinds> ALL_KINDS = RecordCodec.of(ALL_KINDS_TYPE, "test.AllKinds", AllKinds.class,
        (out, e) -> out.writeByte(e.b()).writeShort(e.s()).writeInt(e.i()).writeLong(e.l()).writeFloat(e.f())
            .writeDouble(e.d()).writeBoolean(e.z()).writeString(e.text()).writeBytes(e.bytes()).writeActorId(e.id()),
        in -> new AllKinds(in.readByte(), in.readShort(), in.readInt(), in.readLong(), in.readFloat(), in.readDouble(),
            in.readBoolean(), in.readString(), in.readBytes(), in.readActorId()));

    static AllKinds typical()
    {
        return new AllKinds((byte)1, (short)2, 3, 4L, 5.5f, 6.25, true, "seven", new byte[] {8, 9}, ACTOR);
    }

    @Test
    void roundTripsEveryFieldKind()
    {
        final AllKinds event = typical();

        assertThat(roundTrip(ALL_KINDS, event)).isEqualTo(event);
        assertThat(ALL_KINDS.encodedLength(event)).isEqualTo(1 + 2 + 4 + 8 + 4 + 8 + 1 + (4 + 5) + (4 + 2) + 17);
    }

    @Test
    void roundTripsExtremeValues()
    {
        final AllKinds max = new AllKinds(Byte.MAX_VALUE, Short.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE,
            Float.MAX_VALUE, Double.MAX_VALUE, true, "\uFFFF", new byte[] {-1}, ActorId.fromRaw(-1L, -1L));
        final AllKinds min = new AllKinds(Byte.MIN_VALUE, Short.MIN_VALUE, Integer.MIN_VALUE, Long.MIN_VALUE,
            -Float.MAX_VALUE, -Double.MAX_VALUE, false, "\u0000", new byte[] {0}, ActorId.NONE);
        final AllKinds special = new AllKinds((byte)0, (short)0, 0, 0L, Float.intBitsToFloat(0x7FC0_1234),
            Double.longBitsToDouble(0x7FF8_0000_0000_ABCDL), false, "x", new byte[0], null);
        final AllKinds signed = new AllKinds((byte)0, (short)0, 0, 0L, -0.0f, Double.NEGATIVE_INFINITY, false, "",
            null, ServiceId.of(0, "svc"));

        for (final AllKinds event : new AllKinds[] {max, min, special, signed})
        {
            assertThat(roundTrip(ALL_KINDS, event)).isEqualTo(event);
        }
    }

    @Test
    void nullAndEmptyStringsAndBytesStayDistinct()
    {
        final AllKinds nulls = new AllKinds((byte)0, (short)0, 0, 0L, 0f, 0d, false, null, null, null);
        final AllKinds empties = new AllKinds((byte)0, (short)0, 0, 0L, 0f, 0d, false, "", new byte[0], null);

        final AllKinds decodedNulls = roundTrip(ALL_KINDS, nulls);
        final AllKinds decodedEmpties = roundTrip(ALL_KINDS, empties);

        assertThat(decodedNulls.text()).isNull();
        assertThat(decodedNulls.bytes()).isNull();
        assertThat(decodedNulls.id()).isNull();
        assertThat(decodedEmpties.text()).isEmpty();
        assertThat(decodedEmpties.bytes()).isEmpty();
        assertThat(ALL_KINDS.encodedLength(nulls)).isEqualTo(ALL_KINDS.encodedLength(empties));
    }

    @Test
    void aServiceIdComesBackAsAServiceId()
    {
        final ServiceId service = ServiceId.of(ActorId.MAX_NODE_ID, "abcdefghijkl");

        final ActorId decoded = roundTrip(ALL_KINDS, withText("s", service)).id();

        assertThat(decoded).isInstanceOf(ServiceId.class).isEqualTo(service);
        assertThat(((ServiceId)decoded).name()).isEqualTo("abcdefghijkl");
    }

    @Test
    void veryLongStringsAndArraysRoundTripWithExactLengths()
    {
        final String ascii = "a".repeat(1 << 20);
        final String twoByte = "\u00E9".repeat(300_000);
        final String threeByte = "\u20AC".repeat(300_000);
        final String fourByte = "\uD83D\uDE00".repeat(200_000);
        final byte[] bytes = new byte[4 << 20];
        Arrays.fill(bytes, (byte)0x5A);

        assertLongRoundTrip(ascii, 1 << 20);
        assertLongRoundTrip(twoByte, 600_000);
        assertLongRoundTrip(threeByte, 900_000);
        assertLongRoundTrip(fourByte, 800_000);
        final AllKinds big = new AllKinds((byte)0, (short)0, 0, 0L, 0f, 0d, false, null, bytes, null);
        assertThat(roundTrip(ALL_KINDS, big)).isEqualTo(big);
    }

    @Test
    void aLoneSurrogateIsWrittenAsQuestionMarkLikeTheJdk()
    {
        final String lone = "a\uD800b\uDC00c\uD83D";

        final AllKinds decoded = roundTrip(ALL_KINDS, withText(lone, null));

        assertThat(decoded.text()).isEqualTo(new String(lone.getBytes(StandardCharsets.UTF_8),
            StandardCharsets.UTF_8)).isEqualTo("a?b?c?");
    }

    @Test
    void everyTruncationIsRejectedAsMalformedNeverOutOfBounds()
    {
        final AllKinds event = typical();
        final int full = ALL_KINDS.encodedLength(event);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[full + 16]);
        ALL_KINDS.encode(event, buffer, 8);

        for (int length = 0; length < full; length++)
        {
            final int truncated = length;
            assertThatThrownBy(() -> ALL_KINDS.decode(buffer, 8, truncated))
                .as("%d of %d bytes", truncated, full)
                .isInstanceOf(MalformedEventException.class)
                .hasMessageContaining(EventTypes.describe(ALL_KINDS_TYPE))
                .hasMessageMatching(".*(truncated: a .* at offset \\d+ needs \\d+ bytes|length \\d+ at offset \\d+ " +
                    "exceeds the \\d+ bytes remaining).*");
        }
        assertThat(ALL_KINDS.decode(buffer, 8, full)).isEqualTo(event);
    }

    @Test
    void corruptLengthsAreRejectedWithTheFieldAndOffset()
    {
        final AllKinds event = typical();
        final int length = ALL_KINDS.encodedLength(event);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[length]);
        ALL_KINDS.encode(event, buffer, 0);
        final int stringLengthAt = 1 + 2 + 4 + 8 + 4 + 8 + 1;
        final int bytesLengthAt = stringLengthAt + 4 + 5;

        buffer.putInt(stringLengthAt, -2, ByteOrder.LITTLE_ENDIAN);
        assertThatThrownBy(() -> ALL_KINDS.decode(buffer, 0, length)).isInstanceOf(MalformedEventException.class)
            .hasMessageContaining("string length -2 at offset " + stringLengthAt + " is negative");
        buffer.putInt(stringLengthAt, Integer.MAX_VALUE, ByteOrder.LITTLE_ENDIAN);
        assertThatThrownBy(() -> ALL_KINDS.decode(buffer, 0, length)).isInstanceOf(MalformedEventException.class)
            .hasMessageContaining("string length 2147483647 at offset " + stringLengthAt + " exceeds the " +
                (length - stringLengthAt - 4) + " bytes remaining");
        buffer.putInt(stringLengthAt, 5, ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(bytesLengthAt, Integer.MIN_VALUE, ByteOrder.LITTLE_ENDIAN);
        assertThatThrownBy(() -> ALL_KINDS.decode(buffer, 0, length)).isInstanceOf(MalformedEventException.class)
            .hasMessageContaining("byte array length -2147483648 at offset " + bytesLengthAt + " is negative");
        buffer.putInt(bytesLengthAt, 20, ByteOrder.LITTLE_ENDIAN);
        assertThatThrownBy(() -> ALL_KINDS.decode(buffer, 0, length)).isInstanceOf(MalformedEventException.class)
            .hasMessageContaining("byte array length 20 at offset " + bytesLengthAt +
                " exceeds the 19 bytes remaining");
    }

    @Test
    void badBooleanAndPresenceBytesAreRejected()
    {
        final AllKinds event = typical();
        final int length = ALL_KINDS.encodedLength(event);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[length]);
        ALL_KINDS.encode(event, buffer, 0);
        final int booleanAt = 1 + 2 + 4 + 8 + 4 + 8;

        buffer.putByte(booleanAt, (byte)2);
        assertThatThrownBy(() -> ALL_KINDS.decode(buffer, 0, length)).isInstanceOf(MalformedEventException.class)
            .hasMessageContaining("boolean at offset " + booleanAt + " is 2, expected 0 or 1");
        buffer.putByte(booleanAt, (byte)1);
        buffer.putByte(length - 17, (byte)9);
        assertThatThrownBy(() -> ALL_KINDS.decode(buffer, 0, length)).isInstanceOf(MalformedEventException.class)
            .hasMessageContaining("actor id presence byte at offset " + (length - 17) + " is 9");
    }

    @Test
    void aRangeOutsideTheBufferIsRejected()
    {
        assertThatThrownBy(() -> ALL_KINDS.decode(new UnsafeBuffer(new byte[10]), 5, 6))
            .isInstanceOf(MalformedEventException.class)
            .hasMessageContaining("outside the buffer of capacity 10");
    }

    @Test
    void aFailingReaderBecomesMalformed()
    {
        final int type = EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 101);
        final RecordCodec<Positive> codec = RecordCodec.of(type, "test.Positive", Positive.class,
            (out, p) -> out.writeInt(p.value()), in -> new Positive(in.readInt()));
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4]);
        buffer.putInt(0, -5, ByteOrder.LITTLE_ENDIAN);

        assertThatThrownBy(() -> codec.decode(buffer, 0, 4)).isInstanceOf(MalformedEventException.class)
            .hasMessageContaining("the reader of codec 'test.Positive' failed")
            .hasMessageContaining("must be positive: -5")
            .hasCauseInstanceOf(IllegalArgumentException.class);
    }

    record Positive(int value)
    {
        Positive
        {
            if (value <= 0)
            {
                throw new IllegalArgumentException("must be positive: " + value);
            }
        }
    }

    @Test
    void aLaterVersionMayAppendFieldsBothWays()
    {
        final int type = EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 102);
        final RecordCodec<Versioned> v1 = RecordCodec.of(type, "test.V1", Versioned.class,
            (out, v) -> out.writeLong(v.id()), in -> new Versioned(in.readLong(), null));
        final RecordCodec<Versioned> v2 = RecordCodec.of(type, "test.V2", Versioned.class,
            (out, v) -> out.writeLong(v.id()).writeString(v.note()),
            in -> new Versioned(in.readLong(), in.hasRemaining() ? in.readString() : "unknown"));
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer();

        final int newLength = v2.encode(new Versioned(1, "hello"), buffer, 0);
        assertThat(v1.decode(buffer, 0, newLength)).isEqualTo(new Versioned(1, null));
        final int oldLength = v1.encode(new Versioned(2, "dropped"), buffer, 0);
        assertThat(v2.decode(buffer, 0, oldLength)).isEqualTo(new Versioned(2, "unknown"));
    }

    record Versioned(long id, String note)
    {
    }

    record Tree(String label, Tree child)
    {
    }

    static final RecordCodec<Tree> TREE = RecordCodec.of(EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 103),
        "test.Tree", Tree.class, RecordCodecTest::writeTree, RecordCodecTest::readTree);

    private static void writeTree(final EventWriter out, final Tree tree)
    {
        // asks the codec for the nested length from inside its own writer: the codec is re-entered
        out.writeString(tree.label()).writeInt(tree.child() == null ? -1 : TREE.encodedLength(tree.child()));
        if (tree.child() != null)
        {
            writeTree(out, tree.child());
        }
    }

    private static Tree readTree(final EventReader in)
    {
        final String label = in.readString();
        final int childLength = in.readInt();
        return new Tree(label, childLength < 0 ? null : readTree(in));
    }

    @Test
    void aWriterMayReEnterItsCodec()
    {
        final Tree tree = new Tree("root", new Tree("branch", new Tree("leaf", null)));

        assertThat(roundTrip(TREE, tree)).isEqualTo(tree);
    }

    @Test
    void encodingPrimitivesAllocatesNothing()
    {
        final AllKinds event = new AllKinds((byte)1, (short)2, 3, 4L, 5f, 6d, true,
            "ascii and \u00E9\u20AC\uD83D\uDE00", null, ACTOR);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);

        final long allocated =
            Allocations.allocatedBy(() -> ALL_KINDS.encode(event, buffer, ALL_KINDS.encodedLength(event) & 7));

        assertThat(allocated).as("bytes allocated by %d measures and encodes", Allocations.CALLS)
            .isLessThan(Allocations.CALLS);
    }

    @Test
    void theCodecNeedsAllItsParts()
    {
        assertThatThrownBy(() -> RecordCodec.of(1, "", AllKinds.class, (out, e) -> { }, in -> null))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a name");
        assertThatThrownBy(() -> RecordCodec.<AllKinds>of(1, "x", AllKinds.class, null, in -> null))
            .isInstanceOf(IllegalArgumentException.class);
        assertThat(ALL_KINDS.toString()).contains("test.AllKinds").contains("4096:100");
    }

    private static void assertLongRoundTrip(final String text, final int utf8Bytes)
    {
        final AllKinds event = withText(text, null);
        final int length = ALL_KINDS.encodedLength(event);

        assertThat(EventWriter.utf8Length(text)).isEqualTo(utf8Bytes);
        assertThat(EventWriter.stringFieldLength(text)).isEqualTo(4 + utf8Bytes);
        assertThat(length).isEqualTo(ALL_KINDS.encodedLength(withText("", null)) + utf8Bytes);
        assertThat(roundTrip(ALL_KINDS, event).text()).isEqualTo(text);
    }

    private static AllKinds withText(final String text, final ActorId id)
    {
        return new AllKinds((byte)0, (short)0, 0, 0L, 0f, 0d, false, text, null, id);
    }
}
