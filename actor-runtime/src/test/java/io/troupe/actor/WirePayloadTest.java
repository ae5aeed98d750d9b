package io.troupe.actor;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static io.troupe.actor.CountingDecoder.ascii;
import static io.troupe.actor.TestActors.USER_TYPE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WirePayloadTest
{
    private static final int OTHER_TYPE = EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 8);

    private final CountingDecoder decoder = new CountingDecoder(USER_TYPE);

    @Test
    void copyOfTakesOnlyTheRangeAndOwnsItsBytes()
    {
        final UnsafeBuffer src = new UnsafeBuffer(ascii("xxhelloyy"));

        final WirePayload payload = WirePayload.copyOf(USER_TYPE, src, 2, 5, decoder);
        src.putByte(2, (byte)'J');

        assertThat(payload.typeId()).isEqualTo(USER_TYPE);
        assertThat(payload.length()).isEqualTo(5);
        assertThat(payload.buffer().capacity()).isEqualTo(5);
        assertThat(payload.buffer().getStringWithoutLengthAscii(0, 5)).isEqualTo("hello");
        assertThat(payload.decoder()).isSameAs(decoder);
        assertThat(payload.isDecoded()).isFalse();
        assertThat(decoder.calls()).as("copying never decodes").isZero();
    }

    @Test
    void anEmptyPayloadIsAllowed()
    {
        final WirePayload payload = WirePayload.copyOf(USER_TYPE, new UnsafeBuffer(new byte[0]), 0, 0, decoder);

        assertThat(payload.length()).isZero();
        assertThat(payload.event()).isEqualTo("");
    }

    @Test
    void decodesOnceAndCaches()
    {
        final WirePayload payload = payload("abc");

        final Object first = payload.event();
        final Object second = payload.event();
        final String typed = payload.event(decoder);

        assertThat(first).isEqualTo("abc");
        assertThat(second).isSameAs(first);
        assertThat(typed).isSameAs(first);
        assertThat(payload.isDecoded()).isTrue();
        assertThat(decoder.calls()).isEqualTo(1);
    }

    @Test
    void anotherDecoderDecodesAgainAndReplacesTheCache()
    {
        final WirePayload payload = payload("abc");
        final CountingDecoder other = new CountingDecoder(USER_TYPE);

        final Object first = payload.event();
        final String again = payload.event(other);
        final String cached = payload.event(other);

        assertThat(again).isEqualTo("abc").isNotSameAs(first);
        assertThat(cached).isSameAs(again);
        assertThat(decoder.calls()).isEqualTo(1);
        assertThat(other.calls()).isEqualTo(1);
        assertThat(payload.event()).isSameAs(again);
    }

    @Test
    void withoutARegisteredDecoderEventSaysSo()
    {
        final WirePayload payload = WirePayload.copyOf(USER_TYPE, new UnsafeBuffer(ascii("abc")), 0, 3, null);

        assertThatThrownBy(payload::event)
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("no codec is registered for event type " + EventTypes.describe(USER_TYPE));
        assertThat(payload.event(decoder)).isEqualTo("abc");
        assertThat(payload.event()).as("decoded by the caller's decoder, cached").isEqualTo("abc");
    }

    @Test
    void aDecoderForAnotherTypeIsRejected()
    {
        final CountingDecoder wrong = new CountingDecoder(OTHER_TYPE);

        assertThatThrownBy(() -> payload("abc").event(wrong))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining(EventTypes.describe(OTHER_TYPE))
            .hasMessageContaining(EventTypes.describe(USER_TYPE));
        assertThatThrownBy(() -> WirePayload.copyOf(USER_TYPE, new UnsafeBuffer(new byte[1]), 0, 1, wrong))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("decoder for type " + EventTypes.describe(OTHER_TYPE));
        assertThat(wrong.calls()).isZero();
    }

    @Test
    void aMalformedPayloadIsNotCachedAndFailsEveryTime()
    {
        final WirePayload payload = payload("!bad");

        assertThatThrownBy(payload::event).isInstanceOf(MalformedEventException.class)
            .hasMessageContaining("malformed event of type " + EventTypes.describe(USER_TYPE))
            .hasMessageContaining("starts with '!'");
        assertThatThrownBy(payload::event).isInstanceOf(MalformedEventException.class);
        assertThat(payload.isDecoded()).isFalse();
        assertThat(decoder.calls()).isEqualTo(2);
    }

    @Test
    void aRangeOutsideTheSourceIsRejected()
    {
        final UnsafeBuffer src = new UnsafeBuffer(new byte[8]);

        assertThatThrownBy(() -> WirePayload.copyOf(USER_TYPE, src, 4, 5, decoder))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("offset=4 length=5")
            .hasMessageContaining("capacity 8");
        assertThatThrownBy(() -> WirePayload.copyOf(USER_TYPE, src, -1, 1, decoder))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WirePayload.copyOf(USER_TYPE, src, 0, -1, decoder))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WirePayload.copyOf(USER_TYPE, src, Integer.MAX_VALUE, 1, decoder))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void toStringNeverDecodes()
    {
        final WirePayload payload = payload("abc");

        assertThat(payload.toString()).contains("length=3").doesNotContain("abc");
        payload.event();
        assertThat(payload.toString()).contains("decoded=abc");
        assertThat(decoder.calls()).isEqualTo(1);
    }

    private WirePayload payload(final String text)
    {
        final byte[] bytes = ascii(text);
        return WirePayload.copyOf(USER_TYPE, new UnsafeBuffer(bytes), 0, bytes.length, decoder);
    }
}
