package io.troupe.serialization.wire;

import io.troupe.actor.ActorId;
import io.troupe.actor.UndeliveredReason;
import io.troupe.serialization.internal.sbe.UndeliveredNoticeDecoder;

/**
 * A received notice that an event could not be delivered; for the event's sender.
 */
public final class UndeliveredNoticeFrame extends Frame
{
    private final UndeliveredNoticeDecoder decoder = new UndeliveredNoticeDecoder();

    UndeliveredNoticeFrame()
    {
    }

    @Override
    void onWrap()
    {
        decoder.wrap(buffer, blockOffset, blockLength, version);
    }

    /**
     * The first long of the event's sender, who gets the notice.
     *
     * @return the value.
     */
    public long senderRaw1()
    {
        return decoder.senderRaw1();
    }

    /**
     * The second long of the event's sender.
     *
     * @return the value.
     */
    public long senderRaw2()
    {
        return decoder.senderRaw2();
    }

    /**
     * The event's sender, who gets the notice (allocates).
     *
     * @return the value.
     */
    public ActorId sender()
    {
        return ActorId.fromRaw(decoder.senderRaw1(), decoder.senderRaw2());
    }

    /**
     * The recipient the event did not reach (allocates).
     *
     * @return the value.
     */
    public ActorId recipient()
    {
        return ActorId.fromRaw(decoder.recipientRaw1(), decoder.recipientRaw2());
    }

    /**
     * The event's cookie.
     *
     * @return the value.
     */
    public long cookie()
    {
        return decoder.cookie();
    }

    /**
     * The event's type id.
     *
     * @return the value.
     */
    public int eventType()
    {
        return decoder.eventType();
    }

    /**
     * Why it was not delivered, or null for a reason this build does not know (see {@link #reasonCode()}).
     *
     * @return the value.
     */
    public UndeliveredReason reason()
    {
        return reasonOf(decoder.reasonRaw());
    }

    /**
     * The reason's code on the wire.
     *
     * @return the value.
     */
    public int reasonCode()
    {
        return decoder.reasonRaw();
    }

    /**
     * Whether the event may have been delivered after all (the session died before an ack).
     *
     * @return true or false.
     */
    public boolean unsure()
    {
        return decoder.unsureRaw() != 0;
    }

    private static UndeliveredReason reasonOf(final int code)
    {
        // codes 0..4 are the schema's; REFUSED (clients only) has none in this frame
        final UndeliveredReason[] reasons = UndeliveredReason.values();
        return code >= 0 && code < UndeliveredReason.REFUSED.ordinal() ? reasons[code] : null;
    }
}
