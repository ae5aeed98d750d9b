package io.troupe.broker;

import com.sun.management.ThreadMXBean;
import io.troupe.actor.ActorId;
import io.troupe.actor.EventTypes;
import io.troupe.actor.MalformedEventException;
import io.troupe.actor.ServiceId;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.EventCodecRegistry;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Every broker codec: round trips at the boundaries, every counterparty kind, and malformed payloads. */
class BrokerCodecsTest
{
    private static final ActorId ACTOR = ActorId.of(7, 123_456_789L, 42, 3);
    private static final ServiceId SERVICE = ServiceId.of(ActorId.MAX_NODE_ID, "twelve-chars");
    /** Every counterparty that crosses nodes; byte arrays are compared by content. */
    private static final List<Object> COUNTERPARTIES = List.of(ACTOR, SERVICE, ActorId.NONE, "", "worker-1",
        "h\u00e9llo \u4e16\u754c \ud83d\ude00", Long.MIN_VALUE, 0L, Long.MAX_VALUE, Integer.MIN_VALUE, -1,
        Integer.MAX_VALUE, new byte[0], new byte[] {0, -1, 127, -128});

    /**
     * Encodes at an odd offset of a larger buffer, checks the length, and decodes from a buffer of exactly its bytes.
     */
    private static <T> T roundTrip(final EventCodec<T> codec, final T event)
    {
        final int length = codec.encodedLength(event);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[length + 10]);
        assertThat(codec.encode(event, buffer, 3)).as("bytes written").isEqualTo(length);
        final byte[] exact = new byte[length];
        buffer.getBytes(3, exact);
        final T fromOffset = codec.decode(buffer, 3, length);
        final T decoded = codec.decode(new UnsafeBuffer(exact), 0, length);
        assertThat(codec.encodedLength(decoded)).isEqualTo(length);
        if (!(event instanceof BrokerAsk) && !(event instanceof Go) && !(event instanceof DynamicAsk))
        {
            assertThat(decoded).isEqualTo(event).isEqualTo(fromOffset);
        }
        return decoded;
    }

    private static <T> byte[] encode(final EventCodec<T> codec, final T event)
    {
        final byte[] bytes = new byte[codec.encodedLength(event)];
        codec.encode(event, new UnsafeBuffer(bytes), 0);
        return bytes;
    }

    /** Asserts a payload is rejected as malformed, with the codec's type id and a message containing the text. */
    private static void assertMalformed(final EventCodec<?> codec, final byte[] payload, final String text)
    {
        assertThatThrownBy(() -> codec.decode(new UnsafeBuffer(payload), 0, payload.length))
            .isInstanceOf(MalformedEventException.class)
            .hasMessageContaining(text)
            .satisfies(ex -> assertThat(((MalformedEventException)ex).typeId()).isEqualTo(codec.typeId()));
    }

    /** Every strict prefix of a valid payload is rejected (every field is needed), and nothing outside it is read. */
    private static <T> void assertEveryPrefixIsRejected(final EventCodec<T> codec, final T event)
    {
        final byte[] full = encode(codec, event);
        for (int cut = 0; cut < full.length; cut++)
        {
            final byte[] prefix = Arrays.copyOf(full, cut);
            assertThatThrownBy(() -> codec.decode(new UnsafeBuffer(prefix), 0, prefix.length))
                .as("%s cut to %d of %d bytes", codec.name(), cut, full.length)
                .isInstanceOf(MalformedEventException.class)
                .hasMessageFindingMatch("truncated|exceeds the \\d+ bytes remaining");
        }
    }

    private static void assertCounterparty(final Object decoded, final Object expected)
    {
        if (expected instanceof byte[] bytes)
        {
            assertThat(decoded).isInstanceOf(byte[].class);
            assertThat((byte[])decoded).containsExactly(bytes);
        }
        else
        {
            assertThat(decoded).isEqualTo(expected);
            if (expected != null)
            {
                assertThat(decoded).hasSameClassAs(expected);
            }
        }
    }

    @Test
    void everyCrossingEventHasACodecUnderItsOwnTypeAndTheLocalOnesHaveNone()
    {
        final EventCodecRegistry registry = BrokerCodecs.register(EventCodecRegistry.builder().withTroupeCodecs())
            .build();
        final List<Class<?>> crossing = List.of(BrokerAsk.class, Go.class, Drop.class, BrokerCancel.class,
            Cancelled.class, LengthsQuery.class, Lengths.class, AlarmSubscription.class, BrokerAlarm.class, Done.class,
            Continue.class, Stop.class, StatsQuery.class, BrokerStats.class, RegulatorUpdate.class, DynamicAsk.class,
            Queued.class);
        assertThat(BrokerCodecs.ALL).hasSameSizeAs(crossing);
        final Set<Integer> types = new HashSet<>();
        for (final Class<?> eventClass : crossing)
        {
            final EventCodec<?> codec = registry.codecFor(eventClass);
            assertThat(codec).as("codec of %s", eventClass.getSimpleName()).isNotNull();
            assertThat(EventTypes.spaceOf(codec.typeId())).isEqualTo(EventTypes.SPACE_BROKER);
            assertThat(registry.codec(codec.typeId())).isSameAs(codec);
            assertThat(codec.name()).isEqualTo("broker." + eventClass.getSimpleName());
            assertThat(types.add(codec.typeId())).isTrue();
        }
        assertThat(BrokerAsk.TYPE).isEqualTo(BrokerCodecs.BROKER_ASK.typeId());
        assertThat(RegulatorUpdate.TYPE).isEqualTo(BrokerCodecs.REGULATOR_UPDATE.typeId());
        assertThat(registry.codecFor(Reconfigure.class)).isNull();
        assertThat(registry.codecFor(ReconfigureRegulator.class)).isNull();
        assertThat(registry.codec(Reconfigure.TYPE)).isNull();
        assertThat(registry.codec(ReconfigureRegulator.TYPE)).isNull();
    }

    @Test
    void aDynamicAskAndItsQueuedAnswerCrossNodesIntact()
    {
        for (final Object counterparty : new Object[] {null, "worker", 7L, 9, ActorId.of(3, 4, 5), new byte[] {1, 2}})
        {
            final DynamicAsk ask = new DynamicAsk(Side.ASK_R, 0x0102030405060708L, counterparty, -5L);
            final DynamicAsk decoded = roundTrip(BrokerCodecs.DYNAMIC_ASK, ask);
            assertThat(new DynamicAsk(decoded.side(), decoded.ref(), null, decoded.sentNs()))
                .isEqualTo(new DynamicAsk(Side.ASK_R, 0x0102030405060708L, null, -5L));
            assertCounterparty(decoded.counterparty(), counterparty);
            assertEveryPrefixIsRejected(BrokerCodecs.DYNAMIC_ASK, ask);
        }
        assertThat(roundTrip(BrokerCodecs.QUEUED, new Queued(-3))).isEqualTo(new Queued(-3));
    }

    @Test
    void registeringTwiceNamesTheClash()
    {
        final EventCodecRegistry.Builder builder = BrokerCodecs.register(EventCodecRegistry.builder());
        assertThatThrownBy(() -> BrokerCodecs.register(builder))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("broker.BrokerAsk");
    }

    @Test
    void aBrokerAskRoundTripsWithEveryCounterpartyAndBothSides()
    {
        final List<Object> counterparties = new ArrayList<>(COUNTERPARTIES);
        counterparties.add(null);
        for (final Object counterparty : counterparties)
        {
            for (final Side side : Side.values())
            {
                for (final boolean nonBlocking : new boolean[] {false, true})
                {
                    for (final long value : new long[] {Long.MIN_VALUE, 0, Long.MAX_VALUE})
                    {
                        final BrokerAsk ask = new BrokerAsk(side, value, counterparty, ~value, nonBlocking);
                        final BrokerAsk decoded = roundTrip(BrokerCodecs.BROKER_ASK, ask);
                        assertThat(decoded.side()).isEqualTo(side);
                        assertThat(decoded.ref()).isEqualTo(value);
                        assertThat(decoded.sentNs()).isEqualTo(~value);
                        assertThat(decoded.nonBlocking()).isEqualTo(nonBlocking);
                        assertCounterparty(decoded.counterparty(), counterparty);
                    }
                }
            }
        }
    }

    @Test
    void aGoRoundTripsWithEveryCounterparty()
    {
        final List<Object> counterparties = new ArrayList<>(COUNTERPARTIES);
        counterparties.add(null);
        for (final Object counterparty : counterparties)
        {
            for (final long value : new long[] {Long.MIN_VALUE, -1, 0, Long.MAX_VALUE})
            {
                final Go decoded = roundTrip(BrokerCodecs.GO, new Go(value, counterparty, -value - 1, value ^ 5));
                assertThat(decoded.ref()).isEqualTo(value);
                assertThat(decoded.relativeTimeNs()).isEqualTo(-value - 1);
                assertThat(decoded.sojournTimeNs()).isEqualTo(value ^ 5);
                assertCounterparty(decoded.counterparty(), counterparty);
            }
        }
        assertThat(roundTrip(BrokerCodecs.GO, new Go(1, SERVICE, 0, 0)).counterparty()).isInstanceOf(ServiceId.class);
    }

    @Test
    void theWireFormIsTheDocumentedOne()
    {
        final UnsafeBuffer ask = new UnsafeBuffer(encode(BrokerCodecs.BROKER_ASK,
            new BrokerAsk(Side.ASK_R, 0x0102030405060708L, 0x1122334455667788L, 99L, true)));
        assertThat(ask.capacity()).isEqualTo(18 + 1 + 8);
        assertThat(ask.getByte(0)).as("side ASK_R").isEqualTo((byte)1);
        assertThat(ask.getByte(1)).as("nonBlocking").isEqualTo((byte)1);
        assertThat(ask.getLong(2, ByteOrder.LITTLE_ENDIAN)).isEqualTo(0x0102030405060708L);
        assertThat(ask.getLong(10, ByteOrder.LITTLE_ENDIAN)).isEqualTo(99L);
        assertThat(ask.getByte(18)).as("tag Long").isEqualTo(BrokerCodecs.TAG_LONG);
        assertThat(ask.getLong(19, ByteOrder.LITTLE_ENDIAN)).isEqualTo(0x1122334455667788L);

        final UnsafeBuffer go = new UnsafeBuffer(encode(BrokerCodecs.GO, new Go(5, ACTOR, -6, 7)));
        assertThat(go.capacity()).isEqualTo(24 + 1 + 16);
        assertThat(go.getByte(24)).as("tag ActorId").isEqualTo(BrokerCodecs.TAG_ACTOR_ID);
        assertThat(go.getLong(25, ByteOrder.LITTLE_ENDIAN)).isEqualTo(ACTOR.raw1());
        assertThat(go.getLong(33, ByteOrder.LITTLE_ENDIAN)).isEqualTo(ACTOR.raw2());
        assertThat(encode(BrokerCodecs.GO, new Go(5, null, 0, 0))).hasSize(25);
        assertThat(encode(BrokerCodecs.GO, new Go(5, "ab\u00e9", 0, 0))).hasSize(25 + 4 + 4);
        assertThat(encode(BrokerCodecs.GO, new Go(5, 1, 0, 0))).hasSize(25 + 4);
        assertThat(encode(BrokerCodecs.GO, new Go(5, new byte[3], 0, 0))).hasSize(25 + 4 + 3);

        assertThat(encode(BrokerCodecs.BROKER_CANCEL, new BrokerCancel(Side.ASK_R, 1))).hasSize(9)
            .endsWith((byte)1);
        assertThat(encode(BrokerCodecs.BROKER_CANCEL, new BrokerCancel(Side.ASK, 1))).endsWith((byte)0);
    }

    @Test
    void theFixedLengthEventsRoundTripAtTheirBoundaries()
    {
        for (final long value : new long[] {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE})
        {
            roundTrip(BrokerCodecs.DROP, new Drop(value, ~value));
            roundTrip(BrokerCodecs.DONE, new Done(value));
            roundTrip(BrokerCodecs.CONTINUE, new Continue(value));
            roundTrip(BrokerCodecs.STOP, new Stop(value));
            roundTrip(BrokerCodecs.REGULATOR_UPDATE, new RegulatorUpdate(value));
            for (final boolean flag : new boolean[] {false, true})
            {
                roundTrip(BrokerCodecs.CANCELLED, new Cancelled(value, flag));
            }
            for (final Side side : Side.values())
            {
                roundTrip(BrokerCodecs.BROKER_CANCEL, new BrokerCancel(side, value));
            }
        }
        for (final int value : new int[] {0, 1, Integer.MAX_VALUE})
        {
            roundTrip(BrokerCodecs.LENGTHS, new Lengths(value, Integer.MAX_VALUE - value));
        }
        for (final int value : new int[] {Integer.MIN_VALUE, 0, Integer.MAX_VALUE})
        {
            roundTrip(BrokerCodecs.LENGTHS_QUERY, new LengthsQuery(value));
            roundTrip(BrokerCodecs.STATS_QUERY, new StatsQuery(value));
        }
        roundTrip(BrokerCodecs.BROKER_STATS, new BrokerStats(0, 1, 2, 3, 4, 5, 6, 7, 8));
        roundTrip(BrokerCodecs.BROKER_STATS, new BrokerStats(Long.MAX_VALUE, 0, Long.MAX_VALUE - 1, 1, Long.MAX_VALUE,
            Integer.MAX_VALUE + 1L, Long.MAX_VALUE, 0, Long.MAX_VALUE));
        final UnsafeBuffer stats =
            new UnsafeBuffer(encode(BrokerCodecs.BROKER_STATS, new BrokerStats(1, 2, 3, 4, 5, 6, 7, 8, 9)));
        assertThat(stats.capacity()).isEqualTo(72);
        for (int i = 0; i < 7; i++)
        {
            assertThat(stats.getLong(8 * i, ByteOrder.LITTLE_ENDIAN)).isEqualTo(i + 1);
        }
        roundTrip(BrokerCodecs.ALARM_SUBSCRIPTION, new AlarmSubscription(true));
        roundTrip(BrokerCodecs.ALARM_SUBSCRIPTION, new AlarmSubscription(false));
        assertThat(encode(BrokerCodecs.DROP, new Drop(1, 2))).hasSize(16);
        assertThat(encode(BrokerCodecs.LENGTHS, new Lengths(1, 2))).hasSize(8);
        assertThat(encode(BrokerCodecs.LENGTHS_QUERY, new LengthsQuery(0))).hasSize(4);
        assertThat(encode(BrokerCodecs.ALARM_SUBSCRIPTION, new AlarmSubscription(true))).hasSize(1);
    }

    @Test
    void anAlarmRoundTripsWithNullsAndLongNames()
    {
        roundTrip(BrokerCodecs.BROKER_ALARM, new BrokerAlarm(ACTOR, "overload", true));
        roundTrip(BrokerCodecs.BROKER_ALARM, new BrokerAlarm(SERVICE, "", false));
        roundTrip(BrokerCodecs.BROKER_ALARM, new BrokerAlarm(null, null, false));
        roundTrip(BrokerCodecs.BROKER_ALARM, new BrokerAlarm(ACTOR, "\u00fcberlast ".repeat(1000), true));
    }

    @Test
    void aLongerPayloadIsReadAndItsTailIgnored()
    {
        final byte[] drop = Arrays.copyOf(encode(BrokerCodecs.DROP, new Drop(3, 4)), 16 + 5);
        assertThat(BrokerCodecs.DROP.decode(new UnsafeBuffer(drop), 0, drop.length)).isEqualTo(new Drop(3, 4));
        final byte[] go = Arrays.copyOf(encode(BrokerCodecs.GO, new Go(3, "x", 4, 5)), 24 + 6 + 3);
        assertThat(BrokerCodecs.GO.decode(new UnsafeBuffer(go), 0, go.length)).isEqualTo(new Go(3, "x", 4, 5));
    }

    @Test
    void truncatedPayloadsAreMalformed()
    {
        for (final Object counterparty : COUNTERPARTIES)
        {
            assertEveryPrefixIsRejected(BrokerCodecs.BROKER_ASK, new BrokerAsk(Side.ASK, 1, counterparty, 2, false));
            assertEveryPrefixIsRejected(BrokerCodecs.GO, new Go(1, counterparty, 2, 3));
        }
        assertEveryPrefixIsRejected(BrokerCodecs.BROKER_ASK, new BrokerAsk(Side.ASK, 1, null, 2, false));
        assertEveryPrefixIsRejected(BrokerCodecs.GO, new Go(1, null, 2, 3));
        assertEveryPrefixIsRejected(BrokerCodecs.DROP, new Drop(1, 2));
        assertEveryPrefixIsRejected(BrokerCodecs.BROKER_CANCEL, new BrokerCancel(Side.ASK_R, 1));
        assertEveryPrefixIsRejected(BrokerCodecs.CANCELLED, new Cancelled(1, true));
        assertEveryPrefixIsRejected(BrokerCodecs.LENGTHS_QUERY, new LengthsQuery(0));
        assertEveryPrefixIsRejected(BrokerCodecs.LENGTHS, new Lengths(1, 2));
        assertEveryPrefixIsRejected(BrokerCodecs.ALARM_SUBSCRIPTION, new AlarmSubscription(true));
        assertEveryPrefixIsRejected(BrokerCodecs.BROKER_ALARM, new BrokerAlarm(ACTOR, "overload", true));
        assertEveryPrefixIsRejected(BrokerCodecs.DONE, new Done(1));
        assertEveryPrefixIsRejected(BrokerCodecs.CONTINUE, new Continue(1));
        assertEveryPrefixIsRejected(BrokerCodecs.STOP, new Stop(1));
        assertEveryPrefixIsRejected(BrokerCodecs.REGULATOR_UPDATE, new RegulatorUpdate(1));
        assertEveryPrefixIsRejected(BrokerCodecs.STATS_QUERY, new StatsQuery(0));
        assertEveryPrefixIsRejected(BrokerCodecs.BROKER_STATS, new BrokerStats(1, 2, 3, 4, 5, 6, 7, 8, 9));
    }

    @Test
    void anUnknownCounterpartyTagIsMalformed()
    {
        for (final byte tag : new byte[] {6, 7, 127, -1, -128})
        {
            final byte[] ask = encode(BrokerCodecs.BROKER_ASK, new BrokerAsk(Side.ASK, 1, 5L, 2, false));
            ask[18] = tag;
            assertMalformed(BrokerCodecs.BROKER_ASK, ask, "counterparty tag " + tag + " at offset 18 is unknown");
            final byte[] go = encode(BrokerCodecs.GO, new Go(1, null, 2, 3));
            go[24] = tag;
            assertMalformed(BrokerCodecs.GO, go, "counterparty tag " + tag + " at offset 24 is unknown");
        }
    }

    @Test
    void aCounterpartyLengthThatIsNullNegativeOrTooLongIsMalformed()
    {
        final byte[] text = encode(BrokerCodecs.GO, new Go(1, "abc", 2, 3));
        final UnsafeBuffer buffer = new UnsafeBuffer(text);
        buffer.putInt(25, -1, ByteOrder.LITTLE_ENDIAN);
        assertMalformed(BrokerCodecs.GO, text, "tagged String but has the null length");
        buffer.putInt(25, -2, ByteOrder.LITTLE_ENDIAN);
        assertMalformed(BrokerCodecs.GO, text, "is negative");
        buffer.putInt(25, 4, ByteOrder.LITTLE_ENDIAN);
        assertMalformed(BrokerCodecs.GO, text, "exceeds the 3 bytes remaining");
        buffer.putInt(25, Integer.MAX_VALUE, ByteOrder.LITTLE_ENDIAN);
        assertMalformed(BrokerCodecs.GO, text, "exceeds");

        final byte[] bytes = encode(BrokerCodecs.BROKER_ASK, new BrokerAsk(Side.ASK, 1, new byte[2], 2, false));
        new UnsafeBuffer(bytes).putInt(19, -1, ByteOrder.LITTLE_ENDIAN);
        assertMalformed(BrokerCodecs.BROKER_ASK, bytes, "tagged byte[] but has the null length");
    }

    @Test
    void aBadSideOrFlagIsMalformed()
    {
        for (final byte code : new byte[] {2, 3, -1, 127})
        {
            final byte[] ask = encode(BrokerCodecs.BROKER_ASK, new BrokerAsk(Side.ASK, 1, null, 2, false));
            ask[0] = code;
            assertMalformed(BrokerCodecs.BROKER_ASK, ask,
                "side at offset 0 is " + code + ", expected 0 (ASK) or 1 (ASK_R)");
            final byte[] cancel = encode(BrokerCodecs.BROKER_CANCEL, new BrokerCancel(Side.ASK, 1));
            cancel[8] = code;
            assertMalformed(BrokerCodecs.BROKER_CANCEL, cancel, "side at offset 8 is " + code);

            final byte[] nonBlocking = encode(BrokerCodecs.BROKER_ASK, new BrokerAsk(Side.ASK, 1, null, 2, false));
            nonBlocking[1] = code;
            assertMalformed(BrokerCodecs.BROKER_ASK, nonBlocking, "boolean at offset 1 is " + code);
            final byte[] cancelled = encode(BrokerCodecs.CANCELLED, new Cancelled(1, true));
            cancelled[8] = code;
            assertMalformed(BrokerCodecs.CANCELLED, cancelled, "found at offset 8 is " + code);
            assertMalformed(BrokerCodecs.ALARM_SUBSCRIPTION, new byte[] {code}, "subscribe at offset 0 is " + code);
            final byte[] alarm = encode(BrokerCodecs.BROKER_ALARM, new BrokerAlarm(ACTOR, "a", true));
            alarm[alarm.length - 1] = code;
            assertMalformed(BrokerCodecs.BROKER_ALARM, alarm, "boolean");
            alarm[0] = code;
            assertMalformed(BrokerCodecs.BROKER_ALARM, alarm, "actor id presence byte at offset 0 is " + code);
        }
    }

    @Test
    void aNegativeCounterIsMalformed()
    {
        final String[] fields = {"askMatches", "askDrops", "askRMatches", "askRDrops", "cancels", "alarmChanges",
            "strayEvents"};
        for (int i = 0; i < fields.length; i++)
        {
            final byte[] stats = encode(BrokerCodecs.BROKER_STATS, new BrokerStats(1, 2, 3, 4, 5, 6, 7, 8, 9));
            new UnsafeBuffer(stats).putLong(8 * i, -1 - i, ByteOrder.LITTLE_ENDIAN);
            assertMalformed(BrokerCodecs.BROKER_STATS, stats, fields[i] + " at offset " + 8 * i + " is " + (-1 - i));
        }
    }

    @Test
    void aNegativeQueueLengthIsMalformed()
    {
        final byte[] lengths = encode(BrokerCodecs.LENGTHS, new Lengths(1, 2));
        new UnsafeBuffer(lengths).putInt(4, -3, ByteOrder.LITTLE_ENDIAN);
        assertMalformed(BrokerCodecs.LENGTHS, lengths, "askR at offset 4 is -3");
        new UnsafeBuffer(lengths).putInt(0, Integer.MIN_VALUE, ByteOrder.LITTLE_ENDIAN);
        assertMalformed(BrokerCodecs.LENGTHS, lengths, "ask at offset 0 is " + Integer.MIN_VALUE);
    }

    @Test
    void aRangeOutsideTheBufferIsMalformed()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[16]);
        for (final EventCodec<?> codec : BrokerCodecs.ALL)
        {
            assertThatThrownBy(() -> codec.decode(buffer, 10, 40)).isInstanceOf(MalformedEventException.class);
            assertThatThrownBy(() -> codec.decode(buffer, -1, 4)).isInstanceOf(MalformedEventException.class);
        }
    }

    @Test
    void anUnsupportedCounterpartyFailsToEncodeNamingItsTypeAndTheSupportedOnes()
    {
        for (final Object counterparty : new Object[] {UUID.randomUUID(), (short)1, 1.5, List.of("a"), new int[1],
            Side.ASK})
        {
            assertThatThrownBy(() -> BrokerCodecs.GO.encodedLength(new Go(1, counterparty, 0, 0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("broker.Go")
                .hasMessageContaining(counterparty.getClass().getName())
                .hasMessageContaining("null, ActorId (ServiceId too), String, Long, Integer, byte[]");
            assertThatThrownBy(() -> BrokerCodecs.BROKER_ASK.encode(new BrokerAsk(Side.ASK, 1, counterparty, 0, false),
                new UnsafeBuffer(new byte[64]), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("broker.BrokerAsk: a counterparty of type " + counterparty.getClass().getName() +
                    " cannot be sent to another node");
        }
        // the codec is still usable on the same thread afterwards
        assertThat(roundTrip(BrokerCodecs.GO, new Go(1, "after", 0, 0)).counterparty()).isEqualTo("after");
    }

    @Test
    void aNullSideFailsToEncode()
    {
        assertThatThrownBy(() -> BrokerCodecs.BROKER_ASK.encodedLength(new BrokerAsk(null, 1, null, 0, false)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("the side must not be null");
        assertThatThrownBy(() -> BrokerCodecs.BROKER_CANCEL.encode(new BrokerCancel(null, 1),
            new UnsafeBuffer(new byte[9]), 0))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("broker.BrokerCancel");
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"}) // an array of codecs of several event types
    void encodingTheEventsOfAMatchAllocatesNothing()
    {
        final java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean(); // name clash
        assumeTrue(bean instanceof ThreadMXBean, "no per-thread allocation counter");
        final ThreadMXBean threads = (ThreadMXBean)bean;
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
            "per-thread allocation counter disabled");
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        final Object[] events = {new Go(1, ACTOR, 2, 3), new Go(1, "worker-1", 2, 3), new Go(1, 7L, 2, 3),
            new Go(1, 7, 2, 3), new Go(1, new byte[8], 2, 3), new Go(1, null, 2, 3),
            new BrokerAsk(Side.ASK, 1, "client", 2, false), new Drop(1, 2), new Done(1), new Lengths(1, 2)};
        final EventCodec<Object>[] codecs = new EventCodec[events.length];
        for (int i = 0; i < events.length; i++)
        {
            codecs[i] = (EventCodec<Object>)codecOf(events[i]);
        }
        final int calls = 100_000;
        long allocated = 0;
        for (int round = 0; round < 2; round++) // the first round warms up, the second counts
        {
            final long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
            for (int i = 0; i < calls; i++)
            {
                final int which = i % events.length;
                codecs[which].encode(events[which], buffer, codecs[which].encodedLength(events[which]) & 7);
            }
            allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
        }
        assertThat(allocated).as("bytes allocated by %d measures and encodes", calls).isLessThan(calls);
    }

    private static EventCodec<?> codecOf(final Object event)
    {
        for (final EventCodec<?> codec : BrokerCodecs.ALL)
        {
            if (codec.eventClass() == event.getClass())
            {
                return codec;
            }
        }
        throw new AssertionError("no codec for " + event);
    }
}
