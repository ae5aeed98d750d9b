package io.troupe.serialization;

import io.troupe.actor.ActorId;
import io.troupe.actor.EventTypes;
import io.troupe.actor.MailboxCollapsed;
import io.troupe.actor.MalformedEventException;
import io.troupe.actor.NodeConnected;
import io.troupe.actor.NodeDisconnected;
import io.troupe.actor.Poison;
import io.troupe.actor.spi.WatchRequest;
import io.troupe.actor.TerminationReason;
import io.troupe.actor.Terminated;
import io.troupe.actor.ServiceId;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredReason;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteOrder;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TroupeCodecsTest
{
    private static final ActorId ACTOR = ActorId.of(ActorId.MAX_NODE_ID, -1L, Integer.MAX_VALUE, ActorId.MAX_POOL_ID);
    private static final ServiceId SERVICE = ServiceId.of(77, "twelve-chars");

    @ParameterizedTest
    @EnumSource(UndeliveredReason.class)
    void undeliveredRoundTripsEveryReason(final UndeliveredReason reason)
    {
        assertRoundTrip(TroupeCodecs.UNDELIVERED, new Undelivered(ACTOR, 123, 456L, reason, false));
        assertRoundTrip(TroupeCodecs.UNDELIVERED, new Undelivered(ACTOR, 123, 456L, reason, true));
    }

    @Test
    void undeliveredRoundTripsExtremeValues()
    {
        assertRoundTrip(TroupeCodecs.UNDELIVERED,
            new Undelivered(ActorId.NONE, Integer.MIN_VALUE, Long.MIN_VALUE, UndeliveredReason.SHUTDOWN, true));
        assertRoundTrip(TroupeCodecs.UNDELIVERED,
            new Undelivered(ActorId.fromRaw(-1L, -1L), Integer.MAX_VALUE, Long.MAX_VALUE, UndeliveredReason.SHED,
                false));
    }

    @Test
    void aServiceIdComesBackAsAServiceId()
    {
        final Undelivered decoded = roundTrip(TroupeCodecs.UNDELIVERED,
            new Undelivered(SERVICE, 1, 2L, UndeliveredReason.ACTOR_UNKNOWN, false));
        final MailboxCollapsed collapsed = roundTrip(TroupeCodecs.MAILBOX_COLLAPSED, new MailboxCollapsed(SERVICE, 3));

        assertThat(decoded.recipient()).isInstanceOf(ServiceId.class).isEqualTo(SERVICE);
        assertThat(((ServiceId)decoded.recipient()).name()).isEqualTo("twelve-chars");
        assertThat(collapsed.actor()).isInstanceOf(ServiceId.class).isEqualTo(SERVICE);
        assertThat(roundTrip(TroupeCodecs.MAILBOX_COLLAPSED, new MailboxCollapsed(ACTOR, 3)).actor())
            .isNotInstanceOf(ServiceId.class);
    }

    @Test
    void undeliveredHasTheDocumentedLayout()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[TroupeCodecs.UNDELIVERED_LENGTH]);

        TroupeCodecs.UNDELIVERED.encode(
            new Undelivered(ActorId.fromRaw(0x0102L, 0x0304L), 0x0A0B, 0x0506L, UndeliveredReason.COLLAPSED, true),
            buffer, 0);

        assertThat(buffer.getLong(0, ByteOrder.LITTLE_ENDIAN)).isEqualTo(0x0102L);
        assertThat(buffer.getLong(8, ByteOrder.LITTLE_ENDIAN)).isEqualTo(0x0304L);
        assertThat(buffer.getLong(16, ByteOrder.LITTLE_ENDIAN)).isEqualTo(0x0506L);
        assertThat(buffer.getInt(24, ByteOrder.LITTLE_ENDIAN)).isEqualTo(0x0A0B);
        assertThat(buffer.getByte(28)).isEqualTo((byte)2);
        assertThat(buffer.getByte(29)).isEqualTo((byte)1);
    }

    @Test
    void poisonIsAnEmptyPayload()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[0]);

        assertThat(TroupeCodecs.POISON.encodedLength(Poison.INSTANCE)).isZero();
        assertThat(TroupeCodecs.POISON.encode(Poison.INSTANCE, buffer, 0)).isZero();
        assertThat(TroupeCodecs.POISON.decode(buffer, 0, 0)).isSameAs(Poison.INSTANCE);
    }

    @Test
    void mailboxCollapsedRoundTrips()
    {
        assertRoundTrip(TroupeCodecs.MAILBOX_COLLAPSED, new MailboxCollapsed(ACTOR, Long.MAX_VALUE));
        assertRoundTrip(TroupeCodecs.MAILBOX_COLLAPSED, new MailboxCollapsed(ActorId.NONE, 0));
        assertRoundTrip(TroupeCodecs.MAILBOX_COLLAPSED, new MailboxCollapsed(ACTOR, Long.MIN_VALUE));
    }

    @Test
    void watchRequestsAndEveryTerminationReasonRoundTrip()
    {
        assertRoundTrip(TroupeCodecs.WATCH_REQUEST, new WatchRequest(ACTOR, true));
        assertRoundTrip(TroupeCodecs.WATCH_REQUEST, new WatchRequest(ServiceId.of(3, "x"), false));
        for (final TerminationReason reason : TerminationReason.values())
        {
            assertRoundTrip(TroupeCodecs.TERMINATED, new Terminated(ACTOR, reason));
        }
    }

    @Test
    void nodeEventsRoundTrip()
    {
        for (final int nodeId : new int[] {0, 1, ActorId.MAX_NODE_ID, Integer.MAX_VALUE, Integer.MIN_VALUE})
        {
            assertRoundTrip(TroupeCodecs.NODE_CONNECTED, new NodeConnected(nodeId));
            assertRoundTrip(TroupeCodecs.NODE_DISCONNECTED, new NodeDisconnected(nodeId));
        }
    }

    @Test
    void everyCodecHasItsEventsTypeIdAndClass()
    {
        assertThat(TroupeCodecs.UNDELIVERED.typeId()).isEqualTo(Undelivered.TYPE);
        assertThat(TroupeCodecs.POISON.typeId()).isEqualTo(Poison.TYPE);
        assertThat(TroupeCodecs.MAILBOX_COLLAPSED.typeId()).isEqualTo(MailboxCollapsed.TYPE);
        assertThat(TroupeCodecs.NODE_CONNECTED.typeId()).isEqualTo(NodeConnected.TYPE);
        assertThat(TroupeCodecs.NODE_DISCONNECTED.typeId()).isEqualTo(NodeDisconnected.TYPE);
        assertThat(TroupeCodecs.WATCH_REQUEST.typeId()).isEqualTo(WatchRequest.TYPE);
        assertThat(TroupeCodecs.TERMINATED.typeId()).isEqualTo(Terminated.TYPE);
        assertThat(TroupeCodecs.ALL).<Object>extracting(EventCodec::eventClass).containsExactly(
            Undelivered.class, Poison.class, MailboxCollapsed.class, WatchRequest.class, Terminated.class,
            NodeConnected.class, NodeDisconnected.class);
        assertThat(TroupeCodecs.ALL).extracting(EventCodec::name).allMatch(name -> name.startsWith("troupe."));
        assertThat(TroupeCodecs.ALL)
            .allMatch(codec -> EventTypes.spaceOf(codec.typeId()) < EventTypes.SPACE_USER_FIRST);
    }

    @Test
    void everyTruncatedPayloadIsRejectedClearly()
    {
        for (final Sample<?> sample : samples())
        {
            final int full = sample.encodedLength();
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[full]);
            sample.encode(buffer, 0);
            for (int length = 0; length < full; length++)
            {
                final int truncated = length;
                assertThatThrownBy(() -> sample.codec().decode(buffer, 0, truncated))
                    .as("%s with %d of %d bytes", sample.codec().name(), truncated, full)
                    .isInstanceOf(MalformedEventException.class)
                    .hasMessageContaining("truncated: " + sample.codec().name() + " needs " + full)
                    .hasMessageContaining("the payload has " + truncated)
                    .hasMessageContaining(EventTypes.describe(sample.codec().typeId()));
            }
        }
    }

    @Test
    void aRangeOutsideTheBufferIsRejectedNotReadOutOfBounds()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[40]);

        for (final EventCodec<?> codec : TroupeCodecs.ALL)
        {
            assertThatThrownBy(() -> codec.decode(buffer, 20, 30)).isInstanceOf(MalformedEventException.class)
                .hasMessageContaining("outside the buffer of capacity 40");
            assertThatThrownBy(() -> codec.decode(buffer, -1, 4)).isInstanceOf(MalformedEventException.class);
            assertThatThrownBy(() -> codec.decode(buffer, 0, -1)).isInstanceOf(MalformedEventException.class);
        }
    }

    @Test
    void aLongerPayloadIsReadAndItsTailIgnored()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        buffer.setMemory(0, 64, (byte)0x7F);
        final MailboxCollapsed event = new MailboxCollapsed(ACTOR, 9);

        TroupeCodecs.MAILBOX_COLLAPSED.encode(event, buffer, 4);

        assertThat(TroupeCodecs.MAILBOX_COLLAPSED.decode(buffer, 4, 60)).isEqualTo(event);
    }

    @Test
    void outOfRangeEnumAndFlagBytesAreRejected()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[TroupeCodecs.UNDELIVERED_LENGTH]);
        TroupeCodecs.UNDELIVERED.encode(new Undelivered(ACTOR, 1, 1L, UndeliveredReason.SHED, false), buffer, 0);

        buffer.putByte(28, (byte)6);
        assertThatThrownBy(() -> TroupeCodecs.UNDELIVERED.decode(buffer, 0, TroupeCodecs.UNDELIVERED_LENGTH))
            .isInstanceOf(MalformedEventException.class).hasMessageContaining("unknown undelivered reason code 6");
        buffer.putByte(28, (byte)-1);
        assertThatThrownBy(() -> TroupeCodecs.UNDELIVERED.decode(buffer, 0, TroupeCodecs.UNDELIVERED_LENGTH))
            .isInstanceOf(MalformedEventException.class).hasMessageContaining("code -1");
        buffer.putByte(28, (byte)0);
        buffer.putByte(29, (byte)2);
        assertThatThrownBy(() -> TroupeCodecs.UNDELIVERED.decode(buffer, 0, TroupeCodecs.UNDELIVERED_LENGTH))
            .isInstanceOf(MalformedEventException.class).hasMessageContaining("unsure flag is 2");

        final UnsafeBuffer watch = new UnsafeBuffer(new byte[TroupeCodecs.WATCH_EVENT_LENGTH]);
        TroupeCodecs.WATCH_REQUEST.encode(new WatchRequest(ACTOR, true), watch, 0);
        watch.putByte(16, (byte)2);
        assertThatThrownBy(() -> TroupeCodecs.WATCH_REQUEST.decode(watch, 0, TroupeCodecs.WATCH_EVENT_LENGTH))
            .isInstanceOf(MalformedEventException.class).hasMessageContaining("watch flag is 2");
        TroupeCodecs.TERMINATED.encode(new Terminated(ACTOR, TerminationReason.NODE_DOWNED), watch, 0);
        watch.putByte(16, (byte)5);
        assertThatThrownBy(() -> TroupeCodecs.TERMINATED.decode(watch, 0, TroupeCodecs.WATCH_EVENT_LENGTH))
            .isInstanceOf(MalformedEventException.class).hasMessageContaining("unknown termination reason code 5");
    }

    @Test
    void encodingAllocatesNothing()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final List<Sample<?>> samples = samples();

        final long allocated = Allocations.allocatedBy(() ->
        {
            for (int s = 0; s < samples.size(); s++)
            {
                final Sample<?> sample = samples.get(s);
                sample.encode(buffer, sample.encodedLength() > 32 ? 0 : 8);
            }
        });

        assertThat(allocated).as("bytes allocated by %d rounds of encodes", Allocations.CALLS)
            .isLessThan(Allocations.CALLS);
    }

    private static List<Sample<?>> samples()
    {
        return List.of(
            new Sample<>(TroupeCodecs.UNDELIVERED, new Undelivered(ACTOR, 5, 6L, UndeliveredReason.DISCONNECTED, true)),
            new Sample<>(TroupeCodecs.POISON, Poison.INSTANCE),
            new Sample<>(TroupeCodecs.MAILBOX_COLLAPSED, new MailboxCollapsed(ACTOR, 10)),
            new Sample<>(TroupeCodecs.WATCH_REQUEST, new WatchRequest(ACTOR, true)),
            new Sample<>(TroupeCodecs.TERMINATED, new Terminated(ACTOR, TerminationReason.PASSED_AWAY)),
            new Sample<>(TroupeCodecs.NODE_CONNECTED, new NodeConnected(3)),
            new Sample<>(TroupeCodecs.NODE_DISCONNECTED, new NodeDisconnected(4)));
    }

    /** A codec and an event of its type, so tests can loop over all codecs. */
    record Sample<T>(EventCodec<T> codec, T event)
    {
        int encodedLength()
        {
            return codec.encodedLength(event);
        }

        int encode(final MutableDirectBuffer buffer, final int offset)
        {
            return codec.encode(event, buffer, offset);
        }
    }

    static <T> T roundTrip(final EventCodec<T> codec, final T event)
    {
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64);
        final int offset = 7; // deliberately unaligned
        final int written = codec.encode(event, buffer, offset);
        assertThat(written).as("bytes written by %s", codec.name()).isEqualTo(codec.encodedLength(event));
        return codec.decode(buffer, offset, written);
    }

    static <T> void assertRoundTrip(final EventCodec<T> codec, final T event)
    {
        assertThat(roundTrip(codec, event)).isEqualTo(event);
    }
}
