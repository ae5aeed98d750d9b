package io.troupe.actor;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EnvelopeTest
{
    private static final ActorId TO = ActorId.of(0, 10L, 1);
    private static final ActorId FROM = ActorId.of(0, 11L, 2);
    private static final ActorId FORWARD = ActorId.of(0, 12L, 3);

    @Test
    void accessorsReturnTheConstructorArguments()
    {
        final Object event = new Object();
        final Envelope envelope = new Envelope(TO, FROM, 77, Envelope.FLAG_TRACK_DELIVERY, 99L, event, FORWARD);

        assertThat(envelope.recipient()).isSameAs(TO);
        assertThat(envelope.sender()).isSameAs(FROM);
        assertThat(envelope.type()).isEqualTo(77);
        assertThat(envelope.flags()).isEqualTo(Envelope.FLAG_TRACK_DELIVERY);
        assertThat(envelope.cookie()).isEqualTo(99L);
        assertThat(envelope.event()).isSameAs(event);
        assertThat(envelope.forwardTo()).isSameAs(FORWARD);
    }

    @Test
    void everyChannelRoundTrips()
    {
        for (int channel = 0; channel <= Envelope.MAX_CHANNEL; channel++)
        {
            final int flags = Envelope.withChannel(0, channel);

            assertThat(flags).isEqualTo(channel << 24);
            assertThat(envelope(flags).channel()).isEqualTo(channel);
        }
    }

    @Test
    void withChannelKeepsTheOtherFlags()
    {
        final int low = Envelope.FLAG_TRACK_DELIVERY | Envelope.FLAG_FORWARD_ON_NONDELIVERY | 0x00FF_FF00;

        final int flags = Envelope.withChannel(low, Envelope.MAX_CHANNEL);

        assertThat(flags & 0x00FF_FFFF).isEqualTo(low);
        assertThat(envelope(flags).channel()).isEqualTo(Envelope.MAX_CHANNEL);
        assertThat(envelope(flags).isTracked()).isTrue();
    }

    @Test
    void withChannelReplacesAnEarlierChannel()
    {
        final int flags = Envelope.withChannel(Envelope.withChannel(Envelope.FLAG_TRACK_DELIVERY, 0xFF), 0x12);

        assertThat(envelope(flags).channel()).isEqualTo(0x12);
        assertThat(flags).isEqualTo((0x12 << 24) | Envelope.FLAG_TRACK_DELIVERY);
        assertThat(Envelope.withChannel(flags, 0)).isEqualTo(Envelope.FLAG_TRACK_DELIVERY);
    }

    @Test
    void channelOutOfRangeIsRejected()
    {
        assertThatThrownBy(() -> Envelope.withChannel(0, -1))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("channel -1")
            .hasMessageContaining("0..255");
        assertThatThrownBy(() -> Envelope.withChannel(0, 256))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("channel 256");
    }

    @Test
    void isTrackedFollowsBitZero()
    {
        assertThat(envelope(0).isTracked()).isFalse();
        assertThat(envelope(Envelope.FLAG_TRACK_DELIVERY).isTracked()).isTrue();
        assertThat(envelope(Envelope.FLAG_FORWARD_ON_NONDELIVERY).isTracked()).isFalse();
        assertThat(envelope(Envelope.withChannel(0, 0xFF)).isTracked()).isFalse();
        assertThat(envelope(Envelope.withChannel(Envelope.FLAG_TRACK_DELIVERY, 1)).isTracked()).isTrue();
    }

    @Test
    void redirectTurnsTowardsTheForwardTargetOnce()
    {
        final int flags = Envelope.withChannel(Envelope.FLAG_TRACK_DELIVERY | Envelope.FLAG_FORWARD_ON_NONDELIVERY, 9);
        final Envelope envelope = new Envelope(TO, FROM, 1, flags, 5L, "e", FORWARD);

        envelope.redirectToForwardTarget();

        assertThat(envelope.recipient()).isSameAs(FORWARD);
        assertThat(envelope.forwardTo()).isNull();
        assertThat(envelope.flags() & Envelope.FLAG_FORWARD_ON_NONDELIVERY).isZero();
        assertThat(envelope.isTracked()).isTrue();
        assertThat(envelope.channel()).isEqualTo(9);
        assertThat(envelope.sender()).isSameAs(FROM);
    }

    @Test
    void rewriteRecipientChangesOnlyTheRecipient()
    {
        final Envelope envelope = new Envelope(ServiceId.of(0, "svc"), FROM, 1, 0, 5L, "e", null);

        envelope.rewriteRecipient(TO);

        assertThat(envelope.recipient()).isSameAs(TO);
        assertThat(envelope.sender()).isSameAs(FROM);
        assertThat(envelope.cookie()).isEqualTo(5L);
    }

    private static Envelope envelope(final int flags)
    {
        return new Envelope(TO, FROM, 1, flags, 0L, "event", null);
    }
}
