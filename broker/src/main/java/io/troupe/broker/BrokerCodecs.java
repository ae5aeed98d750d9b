package io.troupe.broker;

import io.troupe.actor.ActorId;
import io.troupe.actor.MalformedEventException;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.EventCodecRegistry;
import io.troupe.serialization.EventReader;
import io.troupe.serialization.EventWriter;
import io.troupe.serialization.FixedLengthCodec;
import io.troupe.serialization.RecordCodec;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;
import java.util.List;

/**
 * Codecs of the broker's events, so that brokers and regulators are reached from other nodes: register them in
 * every node's registry with {@link #register}. {@link Reconfigure} and {@link ReconfigureRegulator} hold code and
 * stay local: they have no codec. Little-endian; the fixed-length events allocate nothing to encode, the others
 * go through {@link RecordCodec}'s reused writer. A payload that does not decode (truncated, an unknown side,
 * counterparty tag or flag byte, a negative length) is a {@link MalformedEventException}; a longer payload is
 * accepted and its tail ignored, so a later version may append fields.
 *
 * <pre>
 *  BrokerAsk (18 bytes + counterparty)          Go (24 bytes + counterparty)
 *    0  side          uint8 (0 ASK, 1 ASK_R)      0  ref             int64
 *    1  nonBlocking   uint8 (0 or 1)              8  relativeTimeNs  int64
 *    2  ref           int64                      16  sojournTimeNs   int64
 *   10  sentNs        int64                      24  counterparty
 *   18  counterparty
 *
 *  counterparty: tag uint8, then the value
 *    0 null      (nothing)                       3 Long     int64
 *    1 ActorId   raw1 int64, raw2 int64          4 Integer  int32
 *      (a ServiceId comes back as one)           5 byte[]   int32 length, then the bytes
 *    2 String    int32 UTF-8 length, then the bytes
 *
 *  Drop (16)              BrokerCancel (9)        Cancelled (9)          Lengths (8)
 *    0  ref      int64      0  ref   int64          0  ref    int64        0  ask   int32 (not negative)
 *    8  sojourn  int64      8  side  uint8          8  found  uint8        4  askR  int32 (not negative)
 *
 *  LengthsQuery, StatsQuery (4): 0 unused int32    AlarmSubscription (1): 0 subscribe uint8
 *  Done, Continue, Stop (8): 0 ref int64            RegulatorUpdate (8): 0 relativeTimeNs int64
 *  BrokerStats (72): askMatches, askDrops, askRMatches, askRDrops, cancels, alarmChanges, strayEvents, purged,
 *                    unencodable: int64 each
 *                    at 0, 8, ... 48, none negative
 *  BrokerAlarm: broker (presence uint8, then raw1, raw2), name (int32 UTF-8 length, -1 for null, then the bytes),
 *               raised uint8
 * </pre>
 *
 * <p>A counterparty of any other type cannot be sent: encoding it throws an {@link IllegalArgumentException}
 * naming its class and the supported ones, which the sender's {@code send} (or {@code ask}) throws. Thread safe.
 */
public final class BrokerCodecs
{
    /** Counterparty tags. */
    static final byte TAG_NULL = 0;
    static final byte TAG_ACTOR_ID = 1;
    static final byte TAG_STRING = 2;
    static final byte TAG_LONG = 3;
    static final byte TAG_INTEGER = 4;
    static final byte TAG_BYTES = 5;
    /** The counterparty types that cross nodes, for error messages. */
    static final String SUPPORTED_COUNTERPARTIES = "null, ActorId (ServiceId too), String, Long, Integer, byte[]";

    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    private static final byte SIDE_ASK = 0;
    private static final byte SIDE_ASK_R = 1;

    /** {@link BrokerAsk}: the side not null, the counterparty null, an ActorId, String, Long, Integer or byte[]. */
    public static final EventCodec<BrokerAsk> BROKER_ASK = RecordCodec.of(
        BrokerAsk.TYPE, "broker.BrokerAsk", BrokerAsk.class, BrokerCodecs::writeAsk, BrokerCodecs::readAsk);
    /** {@link Go}: the counterparty null, an ActorId, String, Long, Integer or byte[]. */
    public static final EventCodec<Go> GO = RecordCodec.of(
        Go.TYPE, "broker.Go", Go.class, BrokerCodecs::writeGo, BrokerCodecs::readGo);
    /** {@link Drop}. */
    public static final EventCodec<Drop> DROP = new Fixed<>(Drop.TYPE, "broker.Drop", Drop.class, 16,
        (drop, buffer, offset) ->
        {
            buffer.putLong(offset, drop.ref(), ORDER);
            buffer.putLong(offset + 8, drop.sojournTimeNs(), ORDER);
        },
        (buffer, offset) -> new Drop(buffer.getLong(offset, ORDER), buffer.getLong(offset + 8, ORDER)));
    /** {@link BrokerCancel}: the side must not be null. */
    public static final EventCodec<BrokerCancel> BROKER_CANCEL = new Fixed<>(
        BrokerCancel.TYPE, "broker.BrokerCancel", BrokerCancel.class, 9,
        (cancel, buffer, offset) ->
        {
            buffer.putLong(offset, cancel.ref(), ORDER);
            buffer.putByte(offset + 8, sideCode(cancel.side(), "broker.BrokerCancel"));
        },
        (buffer, offset) -> new BrokerCancel(
            sideOf(buffer.getByte(offset + 8), BrokerCancel.TYPE, 8), buffer.getLong(offset, ORDER)));
    /** {@link DynamicAsk}: as {@link BrokerAsk}, without the non-blocking flag. */
    public static final EventCodec<DynamicAsk> DYNAMIC_ASK = RecordCodec.of(
        DynamicAsk.TYPE, "broker.DynamicAsk", DynamicAsk.class, BrokerCodecs::writeDynamicAsk,
        BrokerCodecs::readDynamicAsk);
    /** {@link Queued}. */
    public static final EventCodec<Queued> QUEUED = new Fixed<>(Queued.TYPE, "broker.Queued", Queued.class, 8,
        (queued, buffer, offset) -> buffer.putLong(offset, queued.ref(), ORDER),
        (buffer, offset) -> new Queued(buffer.getLong(offset, ORDER)));
    /** {@link Cancelled}. */
    public static final EventCodec<Cancelled> CANCELLED = new Fixed<>(
        Cancelled.TYPE, "broker.Cancelled", Cancelled.class, 9,
        (cancelled, buffer, offset) ->
        {
            buffer.putLong(offset, cancelled.ref(), ORDER);
            buffer.putByte(offset + 8, flag(cancelled.found()));
        },
        (buffer, offset) -> new Cancelled(
            buffer.getLong(offset, ORDER), flagOf(buffer.getByte(offset + 8), Cancelled.TYPE, "found", 8)));
    /** {@link LengthsQuery}. */
    public static final EventCodec<LengthsQuery> LENGTHS_QUERY = new Fixed<>(
        LengthsQuery.TYPE, "broker.LengthsQuery", LengthsQuery.class, 4,
        (query, buffer, offset) -> buffer.putInt(offset, query.unused(), ORDER),
        (buffer, offset) -> new LengthsQuery(buffer.getInt(offset, ORDER)));
    /** {@link Lengths}: neither length may be negative. */
    public static final EventCodec<Lengths> LENGTHS = new Fixed<>(Lengths.TYPE, "broker.Lengths", Lengths.class, 8,
        (lengths, buffer, offset) ->
        {
            buffer.putInt(offset, lengths.ask(), ORDER);
            buffer.putInt(offset + 4, lengths.askR(), ORDER);
        },
        (buffer, offset) -> new Lengths(
            lengthOf(buffer.getInt(offset, ORDER), "ask", 0), lengthOf(buffer.getInt(offset + 4, ORDER), "askR", 4)));
    /** {@link AlarmSubscription}. */
    public static final EventCodec<AlarmSubscription> ALARM_SUBSCRIPTION = new Fixed<>(
        AlarmSubscription.TYPE, "broker.AlarmSubscription", AlarmSubscription.class, 1,
        (subscription, buffer, offset) -> buffer.putByte(offset, flag(subscription.subscribe())),
        (buffer, offset) ->
            new AlarmSubscription(flagOf(buffer.getByte(offset), AlarmSubscription.TYPE, "subscribe", 0)));
    /** {@link BrokerAlarm}: the broker and the name may be null. */
    public static final EventCodec<BrokerAlarm> BROKER_ALARM = RecordCodec.of(
        BrokerAlarm.TYPE, "broker.BrokerAlarm", BrokerAlarm.class,
        (out, alarm) -> out.writeActorId(alarm.broker()).writeString(alarm.name()).writeBoolean(alarm.raised()),
        in -> new BrokerAlarm(in.readActorId(), in.readString(), in.readBoolean()));
    /** {@link Stop}. */
    public static final EventCodec<Stop> STOP = new Fixed<>(Stop.TYPE, "broker.Stop", Stop.class, 8,
        (stop, buffer, offset) -> buffer.putLong(offset, stop.ref(), ORDER),
        (buffer, offset) -> new Stop(buffer.getLong(offset, ORDER)));
    /** {@link Done}. */
    public static final EventCodec<Done> DONE = new Fixed<>(Done.TYPE, "broker.Done", Done.class, 8,
        (done, buffer, offset) -> buffer.putLong(offset, done.ref(), ORDER),
        (buffer, offset) -> new Done(buffer.getLong(offset, ORDER)));
    /** {@link Continue}. */
    public static final EventCodec<Continue> CONTINUE = new Fixed<>(Continue.TYPE, "broker.Continue", Continue.class, 8,
        (keep, buffer, offset) -> buffer.putLong(offset, keep.ref(), ORDER),
        (buffer, offset) -> new Continue(buffer.getLong(offset, ORDER)));
    /** {@link RegulatorUpdate}. */
    public static final EventCodec<RegulatorUpdate> REGULATOR_UPDATE = new Fixed<>(
        RegulatorUpdate.TYPE, "broker.RegulatorUpdate", RegulatorUpdate.class, 8,
        (update, buffer, offset) -> buffer.putLong(offset, update.relativeTimeNs(), ORDER),
        (buffer, offset) -> new RegulatorUpdate(buffer.getLong(offset, ORDER)));
    /** {@link StatsQuery}. */
    public static final EventCodec<StatsQuery> STATS_QUERY = new Fixed<>(
        StatsQuery.TYPE, "broker.StatsQuery", StatsQuery.class, 4,
        (query, buffer, offset) -> buffer.putInt(offset, query.unused(), ORDER),
        (buffer, offset) -> new StatsQuery(buffer.getInt(offset, ORDER)));
    /** {@link BrokerStats}: no counter may be negative. */
    public static final EventCodec<BrokerStats> BROKER_STATS = new Fixed<>(
        BrokerStats.TYPE, "broker.BrokerStats", BrokerStats.class, 9 * Long.BYTES,
        (stats, buffer, offset) ->
        {
            buffer.putLong(offset, stats.askMatches(), ORDER);
            buffer.putLong(offset + 8, stats.askDrops(), ORDER);
            buffer.putLong(offset + 16, stats.askRMatches(), ORDER);
            buffer.putLong(offset + 24, stats.askRDrops(), ORDER);
            buffer.putLong(offset + 32, stats.cancels(), ORDER);
            buffer.putLong(offset + 40, stats.alarmChanges(), ORDER);
            buffer.putLong(offset + 48, stats.strayEvents(), ORDER);
            buffer.putLong(offset + 56, stats.purged(), ORDER);
            buffer.putLong(offset + 64, stats.unencodable(), ORDER);
        },
        (buffer, offset) -> new BrokerStats(
            countOf(buffer, offset, "askMatches", 0),
            countOf(buffer, offset, "askDrops", 8),
            countOf(buffer, offset, "askRMatches", 16),
            countOf(buffer, offset, "askRDrops", 24),
            countOf(buffer, offset, "cancels", 32),
            countOf(buffer, offset, "alarmChanges", 40),
            countOf(buffer, offset, "strayEvents", 48),
            countOf(buffer, offset, "purged", 56),
            countOf(buffer, offset, "unencodable", 64)));
    /** Every codec above, in type id order. */
    public static final List<EventCodec<?>> ALL = List.of(BROKER_ASK, GO, DROP, BROKER_CANCEL, CANCELLED, LENGTHS_QUERY,
        LENGTHS, ALARM_SUBSCRIPTION, BROKER_ALARM, STOP, DONE, CONTINUE, STATS_QUERY, BROKER_STATS, REGULATOR_UPDATE,
        DYNAMIC_ASK, QUEUED);

    private BrokerCodecs()
    {
    }

    /**
     * Registers every broker codec ({@link #ALL}) in Troupe's broker space. Every node that hosts a broker or
     * regulator, or talks to one on another node, needs them:
     * {@code BrokerCodecs.register(EventCodecRegistry.builder().withTroupeCodecs()).build()}.
     *
     * @param builder the registry being built.
     * @return the same builder.
     * @throws IllegalStateException if one of their type ids or classes is already registered.
     */
    public static EventCodecRegistry.Builder register(final EventCodecRegistry.Builder builder)
    {
        for (final EventCodec<?> codec : ALL)
        {
            builder.registerSystem(codec);
        }
        return builder;
    }

    private static void writeAsk(final EventWriter out, final BrokerAsk ask)
    {
        out.writeByte(sideCode(ask.side(), "broker.BrokerAsk")).writeBoolean(ask.nonBlocking()).writeLong(ask.ref())
            .writeLong(ask.sentNs());
        writeCounterparty(out, ask.counterparty(), "broker.BrokerAsk");
    }

    private static BrokerAsk readAsk(final EventReader in)
    {
        final Side side = sideOf(in.readByte(), BrokerAsk.TYPE, 0);
        final boolean nonBlocking = in.readBoolean();
        final long ref = in.readLong();
        final long sentNs = in.readLong();
        return new BrokerAsk(side, ref, readCounterparty(in, BrokerAsk.TYPE), sentNs, nonBlocking);
    }

    private static void writeDynamicAsk(final EventWriter out, final DynamicAsk ask)
    {
        out.writeByte(sideCode(ask.side(), "broker.DynamicAsk")).writeLong(ask.ref()).writeLong(ask.sentNs());
        writeCounterparty(out, ask.counterparty(), "broker.DynamicAsk");
    }

    private static DynamicAsk readDynamicAsk(final EventReader in)
    {
        final Side side = sideOf(in.readByte(), DynamicAsk.TYPE, 0);
        final long ref = in.readLong();
        final long sentNs = in.readLong();
        return new DynamicAsk(side, ref, readCounterparty(in, DynamicAsk.TYPE), sentNs);
    }

    private static void writeGo(final EventWriter out, final Go go)
    {
        out.writeLong(go.ref()).writeLong(go.relativeTimeNs()).writeLong(go.sojournTimeNs());
        writeCounterparty(out, go.counterparty(), "broker.Go");
    }

    private static Go readGo(final EventReader in)
    {
        final long ref = in.readLong();
        final long relativeTimeNs = in.readLong();
        final long sojournTimeNs = in.readLong();
        return new Go(ref, readCounterparty(in, Go.TYPE), relativeTimeNs, sojournTimeNs);
    }

    /** Runs twice per send (to measure, then to write): allocates nothing, unboxing included. */
    private static void writeCounterparty(final EventWriter out, final Object counterparty, final String codec)
    {
        if (counterparty == null)
        {
            out.writeByte(TAG_NULL);
        }
        else if (counterparty instanceof ActorId id)
        {
            out.writeByte(TAG_ACTOR_ID).writeLong(id.raw1()).writeLong(id.raw2());
        }
        else if (counterparty instanceof String text)
        {
            out.writeByte(TAG_STRING).writeString(text);
        }
        else if (counterparty instanceof Long number)
        {
            out.writeByte(TAG_LONG).writeLong(number);
        }
        else if (counterparty instanceof Integer number)
        {
            out.writeByte(TAG_INTEGER).writeInt(number);
        }
        else if (counterparty instanceof byte[] bytes)
        {
            out.writeByte(TAG_BYTES).writeBytes(bytes);
        }
        else
        {
            throw new IllegalArgumentException(codec + ": a counterparty of type " + counterparty.getClass().getName() +
                " cannot be sent to another node; supported: " + SUPPORTED_COUNTERPARTIES);
        }
    }

    private static Object readCounterparty(final EventReader in, final int typeId)
    {
        final int at = in.position();
        final byte tag = in.readByte();
        switch (tag)
        {
            case TAG_NULL:
            {
                return null;
            }
            case TAG_ACTOR_ID:
            {
                final long raw1 = in.readLong();
                final long raw2 = in.readLong();
                return ActorId.fromRaw(raw1, raw2);
            }
            case TAG_STRING:
            {
                final String text = in.readString();
                if (text == null)
                {
                    throw new MalformedEventException(typeId, "counterparty at offset " + at + " is tagged String " +
                        "but has the null length");
                }
                return text;
            }
            case TAG_LONG:
            {
                return Long.valueOf(in.readLong());
            }
            case TAG_INTEGER:
            {
                return Integer.valueOf(in.readInt());
            }
            case TAG_BYTES:
            {
                final byte[] bytes = in.readBytes();
                if (bytes == null)
                {
                    throw new MalformedEventException(typeId, "counterparty at offset " + at + " is tagged byte[] " +
                        "but has the null length");
                }
                return bytes;
            }
            default:
                throw new MalformedEventException(typeId, "counterparty tag " + tag + " at offset " + at + " is " +
                    "unknown; expected " + TAG_NULL + ".." + TAG_BYTES + " (" + SUPPORTED_COUNTERPARTIES + ")");
        }
    }

    /** Wire codes are explicit, so reordering the enum never changes the format. */
    private static byte sideCode(final Side side, final String codec)
    {
        if (side == null)
        {
            throw new IllegalArgumentException(codec + ": the side must not be null");
        }
        return side == Side.ASK ? SIDE_ASK : SIDE_ASK_R;
    }

    private static Side sideOf(final byte code, final int typeId, final int at)
    {
        if (code == SIDE_ASK)
        {
            return Side.ASK;
        }
        if (code == SIDE_ASK_R)
        {
            return Side.ASK_R;
        }
        throw new MalformedEventException(typeId, "side at offset " + at + " is " + code + ", expected " + SIDE_ASK +
            " (ASK) or " + SIDE_ASK_R + " (ASK_R)");
    }

    private static byte flag(final boolean value)
    {
        return (byte)(value ? 1 : 0);
    }

    private static boolean flagOf(final byte code, final int typeId, final String field, final int at)
    {
        if (code != 0 && code != 1)
        {
            throw new MalformedEventException(typeId, field + " at offset " + at + " is " + code + ", expected 0 or 1");
        }
        return code == 1;
    }

    private static int lengthOf(final int length, final String field, final int at)
    {
        if (length < 0)
        {
            throw new MalformedEventException(Lengths.TYPE, field + " at offset " + at + " is " + length +
                ", a queue length is not negative");
        }
        return length;
    }

    private static long countOf(final DirectBuffer buffer, final int offset, final String field, final int at)
    {
        final long count = buffer.getLong(offset + at, ORDER);
        if (count < 0)
        {
            throw new MalformedEventException(BrokerStats.TYPE, field + " at offset " + at + " is " + count +
                ", a counter is not negative");
        }
        return count;
    }

    /** Writes the fields of a fixed-length event; the room was provided. */
    @FunctionalInterface
    private interface FieldWriter<T>
    {
        void write(T event, MutableDirectBuffer buffer, int offset);
    }

    /** Reads the fields of a fixed-length event whose length was checked; throws {@link MalformedEventException}. */
    @FunctionalInterface
    private interface FieldReader<T>
    {
        T read(DirectBuffer buffer, int offset);
    }

    /** A fixed-length codec from two stateless functions. */
    private static final class Fixed<T> extends FixedLengthCodec<T>
    {
        private final FieldWriter<T> writer;
        private final FieldReader<T> reader;

        Fixed(final int typeId, final String name, final Class<T> eventClass, final int length,
            final FieldWriter<T> writer, final FieldReader<T> reader)
        {
            super(typeId, name, eventClass, length);
            this.writer = writer;
            this.reader = reader;
        }

        @Override
        protected void write(final T event, final MutableDirectBuffer buffer, final int offset)
        {
            writer.write(event, buffer, offset);
        }

        @Override
        protected T read(final DirectBuffer buffer, final int offset)
        {
            return reader.read(buffer, offset);
        }
    }
}
