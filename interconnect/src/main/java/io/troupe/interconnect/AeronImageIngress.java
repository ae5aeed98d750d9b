package io.troupe.interconnect;

import io.aeron.Image;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.CreditAccount;
import io.troupe.actor.PollingIngress;
import org.agrona.DirectBuffer;

import java.time.Duration;
import java.util.Objects;

/**
 * The ingress pattern for one Aeron {@link Image} (one remote publisher): each message read becomes an event
 * (a copy of its bytes, a {@code byte[]}) sent to a target actor, charged to the image's own credit account.
 * While the account is in debt the image is not polled, so its receiver window closes and the remote
 * publisher's {@code offer} returns {@code BACK_PRESSURED}: the producer is slowed at the door. Each fragment
 * is taken as one message, so publishers should keep messages within one MTU (for larger ones, extend
 * {@link PollingIngress} and poll through a {@code FragmentAssembler}).
 *
 * <p>Register one per image, on any pool, and send it {@link PollingIngress#POLL} to start. Owned by the
 * actor's thread while it handles events; the image must not be polled by anyone else.
 */
public final class AeronImageIngress extends PollingIngress
{
    private final Image image;
    private final ActorId target;
    private final int eventType;
    private final FragmentHandler handler = this::onFragment;
    private ActorContext ctx;
    private long messages;

    /**
     * An ingress for one image.
     *
     * @param account   the image's account.
     * @param image     the image to read.
     * @param target    where each message goes.
     * @param eventType the events' type id.
     * @param batch     messages per poll at most.
     * @param idleDelay wait after a poll that found nothing.
     */
    public AeronImageIngress(
        final CreditAccount account,
        final Image image,
        final ActorId target,
        final int eventType,
        final int batch,
        final Duration idleDelay)
    {
        super(account, batch, idleDelay);
        this.image = Objects.requireNonNull(image, "image");
        this.target = Objects.requireNonNull(target, "target");
        this.eventType = eventType;
    }

    @Override
    protected int poll(final ActorContext ctx, final int limit)
    {
        this.ctx = ctx;
        try
        {
            return image.poll(handler, limit);
        }
        finally
        {
            this.ctx = null;
        }
    }

    /**
     * Messages read so far (only the ingress's thread may read).
     *
     * @return the count.
     */
    public long messages()
    {
        return messages;
    }

    private void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        final byte[] copy = new byte[length];
        buffer.getBytes(offset, copy);
        messages++;
        ctx.send(target, copy, eventType, 0, 0L);
    }
}
