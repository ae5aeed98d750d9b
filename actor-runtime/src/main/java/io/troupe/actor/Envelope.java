package io.troupe.actor;

import io.troupe.memquota.HasMemoryCost;

/**
 * An event and its addressing: recipient, sender, type, flags, cookie, an optional forward target, and the
 * credit account it is charged to with its cost (see {@link Chargeable}).
 * Created once per send; the runtime links it into mailboxes without copying. Handlers may read it during and
 * after {@link Behavior#receive}.
 *
 * <p>Flags: bit 0 {@link #FLAG_TRACK_DELIVERY}, bit 1 {@link #FLAG_FORWARD_ON_NONDELIVERY}, bit 2
 * {@link #FLAG_SUBSCRIBE_ON_SESSION}; bits 24-31 carry
 * the interconnect channel ({@link #channel()}); the rest are reserved (bit 23 is the runtime's own, never seen
 * outside).
 *
 * <p>An envelope received from another node is <em>serialized</em>: its event is a {@link WirePayload}, decoded
 * lazily by the recipient actor on its own thread on the first call to {@link #event()} or
 * {@link #event(EventDecoder)} and cached after. Local sends carry the event object itself and never serialize.
 */
public final class Envelope extends QueueLink
{
    /** The sender wants an {@link Undelivered} notice if the event cannot be delivered. */
    public static final int FLAG_TRACK_DELIVERY = 1;
    /** Forward to {@link #forwardTo()} if the recipient does not exist. */
    public static final int FLAG_FORWARD_ON_NONDELIVERY = 1 << 1;
    /**
     * For a recipient on another node: subscribe the sender to the session with that node, as with
     * {@code RemoteTransport.subscribe} ({@link NodeConnected} / {@link NodeDisconnected}).
     */
    public static final int FLAG_SUBSCRIBE_ON_SESSION = 1 << 2;
    /** First bit of the interconnect channel. */
    public static final int CHANNEL_SHIFT = 24;
    /** Largest channel number. */
    public static final int MAX_CHANNEL = 0xFF;
    /**
     * A reserved bit of {@link #flags}, never seen outside ({@link #flags()} masks it): the event is a
     * {@link WirePayload}, as given to {@link #Envelope(ActorId, ActorId, int, int, long, WirePayload, ActorId)}.
     * Settling asks this bit, not the event's class: on every event that would read the event object's header, and
     * an event shared by actors on several workers (an immutable constant) then shares its cache line among them,
     * with whatever a collection put beside it: a busy mailbox of another worker, in the slow 4-pair ping-pong runs.
     */
    private static final int SERIALIZED = 1 << 23;
    /**
     * The flag bits a sender may set: all but bit 23, which is the runtime's own. The constructors clear it from the
     * flags they are given, {@link #flags()} never shows it, so it is never sent to another node either.
     */
    public static final int SETTABLE_FLAGS = ~SERIALIZED;
    /** The sign bit of {@link #cost}: repaid, or its repayment taken over. */
    private static final int REPAID = Integer.MIN_VALUE;
    /** Nominal cost of an envelope in a memory-tracked mailbox, before its event's own cost. */
    public static final long ENVELOPE_COST_BYTES = 64;

    private ActorId recipient;
    private final ActorId sender;
    private final int type;
    private int flags;
    private final long cookie;
    private final Object event;
    private ActorId forwardTo;
    private long enqueuedNs;
    private Chargeable account;
    /**
     * The cost, and in its sign bit ({@link #REPAID}) whether it was repaid or its repayment taken over (by the
     * handling context or a transport): one field rather than two keeps an envelope at 64 bytes.
     */
    private int cost;

    /**
     * Creates an envelope.
     *
     * @param recipient where it goes.
     * @param sender    who sent it, {@link ActorId#NONE} from outside any actor.
     * @param type      the event's type id.
     * @param flags     flags.
     * @param cookie    opaque value returned in replies and notices.
     * @param event     the event.
     * @param forwardTo where it goes instead if the recipient does not exist, or null.
     */
    public Envelope(
        final ActorId recipient,
        final ActorId sender,
        final int type,
        final int flags,
        final long cookie,
        final Object event,
        final ActorId forwardTo)
    {
        this.recipient = recipient;
        this.sender = sender;
        this.type = type;
        this.flags = flags & SETTABLE_FLAGS;
        this.cookie = cookie;
        this.event = event;
        this.forwardTo = forwardTo;
    }

    /**
     * Creates a serialized envelope: one received from the wire, whose event is decoded lazily by its recipient
     * (see {@link #event()}), and whose payload the runtime settles when it is done with the envelope (see
     * {@link WirePayload}). Transports use this constructor; the other one, given a payload as an {@code Object},
     * makes an envelope whose settling leaves the payload alone (settling a payload is idempotent, and the envelope
     * it arrived in settles it).
     *
     * @param recipient where it goes.
     * @param sender    who sent it.
     * @param type      the event's type id.
     * @param flags     flags.
     * @param cookie    opaque value returned in replies and notices.
     * @param payload   the serialized event.
     * @param forwardTo where it goes instead if the recipient does not exist, or null.
     */
    public Envelope(
        final ActorId recipient,
        final ActorId sender,
        final int type,
        final int flags,
        final long cookie,
        final WirePayload payload,
        final ActorId forwardTo)
    {
        this(recipient, sender, type, flags, cookie, (Object)payload, forwardTo);
        if (payload != null) // a literal null event picks this constructor too
        {
            this.flags |= SERIALIZED;
        }
    }

    /**
     * The recipient; after routing, a service id has been replaced by the actor it maps to.
     *
     * @return the recipient.
     */
    public ActorId recipient()
    {
        return recipient;
    }

    /**
     * The sender.
     *
     * @return the sender, {@link ActorId#NONE} if sent from outside any actor.
     */
    public ActorId sender()
    {
        return sender;
    }

    /**
     * The event's type id.
     *
     * @return the type.
     */
    public int type()
    {
        return type;
    }

    /**
     * The flags.
     *
     * @return the flags.
     */
    public int flags()
    {
        return flags & SETTABLE_FLAGS;
    }

    /**
     * The sender's cookie.
     *
     * @return the cookie.
     */
    public long cookie()
    {
        return cookie;
    }

    /**
     * The event. For a serialized envelope it is decoded with the decoder registered for its type on the first
     * call, on the calling thread (the recipient actor's), and cached.
     *
     * @return the event object.
     * @throws IllegalStateException   if the envelope is serialized and no decoder is registered for its type.
     * @throws MalformedEventException if the envelope is serialized and its payload cannot be decoded.
     */
    public Object event()
    {
        return event instanceof WirePayload ? ((WirePayload)event).event() : event;
    }

    /**
     * The event, decoded with the given decoder if the envelope is serialized (once per decoder, cached), or the
     * local event object as it was sent.
     *
     * @param decoder the decoder for this envelope's {@link #type()}.
     * @param <T>     the event type; for a local event the caller vouches for it, as with a cast.
     * @return the event.
     * @throws IllegalArgumentException if the decoder's type id is not this envelope's type.
     * @throws MalformedEventException  if the payload cannot be decoded.
     */
    public <T> T event(final EventDecoder<T> decoder)
    {
        if (decoder.typeId() != type)
        {
            throw new IllegalArgumentException("decoder for type " + EventTypes.describe(decoder.typeId()) +
                " cannot decode an envelope of type " + EventTypes.describe(type));
        }
        if (event instanceof WirePayload)
        {
            return ((WirePayload)event).event(decoder);
        }
        @SuppressWarnings("unchecked") // same type id: the sender sent a T
        final T local = (T)event;
        return local;
    }

    /**
     * The serialized payload of an envelope received from the wire.
     *
     * @return the payload, or null for a local event.
     */
    public WirePayload payload()
    {
        return event instanceof WirePayload ? (WirePayload)event : null;
    }

    /**
     * Whether the event travels as a serialized {@link WirePayload}.
     *
     * @return true for an envelope received from the wire.
     */
    public boolean isSerialized()
    {
        return event instanceof WirePayload;
    }

    /**
     * Where the event is forwarded if the recipient does not exist.
     *
     * @return the target, or null.
     */
    public ActorId forwardTo()
    {
        return forwardTo;
    }

    /**
     * Whether the sender asked for an {@link Undelivered} notice on failure.
     *
     * @return true if tracked.
     */
    public boolean isTracked()
    {
        return (flags & FLAG_TRACK_DELIVERY) != 0;
    }

    /**
     * The interconnect channel in the upper flag bits.
     *
     * @return 0..{@link #MAX_CHANNEL}.
     */
    public int channel()
    {
        return flags >>> CHANNEL_SHIFT;
    }

    /**
     * Sets the interconnect channel in a flags value.
     *
     * @param flags   the flags.
     * @param channel 0..{@link #MAX_CHANNEL}.
     * @return the flags with the channel set.
     */
    public static int withChannel(final int flags, final int channel)
    {
        if (channel < 0 || channel > MAX_CHANNEL)
        {
            throw new IllegalArgumentException("channel " + channel + " out of range 0.." + MAX_CHANNEL);
        }
        return (flags & ~(MAX_CHANNEL << CHANNEL_SHIFT)) | (channel << CHANNEL_SHIFT);
    }

    /**
     * The credit account this envelope is charged to.
     *
     * @return the account, or null if uncharged (flow control off, or a runtime notice).
     */
    public Chargeable account()
    {
        return account;
    }

    /**
     * The cost borrowed from {@link #account()}.
     *
     * @return the cost, 0 if uncharged.
     */
    public int cost()
    {
        return cost & ~REPAID;
    }

    /**
     * Charges this envelope to an account: the account's debt grows by the cost until the envelope is settled.
     * Runtime use (a transport charges what arrives from another node); an envelope is charged at most once.
     *
     * @param account the account.
     * @param cost    0 or more.
     * @throws IllegalStateException if already charged.
     */
    public void chargeTo(final Chargeable account, final int cost)
    {
        carryCharge(account, cost);
        account.charge(cost);
    }

    /**
     * Charges this envelope to an account whose debt already counts it: settling the envelope repays the cost.
     * Runtime use, by a transport receiving an event from the account's owner, which kept the debt when it sent
     * the event, and by a handler's context, which has charged the account (or drawn on the handled event's
     * cost) itself.
     *
     * @param account the account.
     * @param cost    0 or more.
     * @throws IllegalStateException if already charged.
     */
    public void carryCharge(final Chargeable account, final int cost)
    {
        if (this.account != null)
        {
            throw new IllegalStateException("envelope already charged to " + this.account);
        }
        if (cost < 0)
        {
            throw new IllegalArgumentException("a cost is 0 or more, got " + cost);
        }
        this.account = account;
        this.cost = cost;
    }

    /**
     * The account a handling context is to repay once the handler has run, read without marking the envelope:
     * the envelope was written by another thread, and a write here would cost the handling worker a second
     * transfer of its cache line per event. The envelope is then finished with {@link #settleHandled}, never
     * {@link #settle}.
     *
     * @return the account still to be repaid, or null.
     */
    public Chargeable accountToRepay()
    {
        return cost < 0 ? null : account;
    }

    /**
     * Takes over the repayment of this envelope's cost: settling it no longer repays. Runtime use, by whoever
     * repays or hands the cost on instead (the handling context, or a transport that sends it to another
     * node).
     *
     * @return the account whose repayment was taken over, or null if there is nothing to repay.
     */
    public Chargeable takeRepayment()
    {
        if (account == null || cost < 0)
        {
            return null;
        }
        cost |= REPAID;
        return account;
    }

    /**
     * Coarse monotonic time at which a memory-tracked mailbox accepted this envelope (0 for untracked ones).
     *
     * @return the time.
     */
    public long enqueuedNs()
    {
        return enqueuedNs;
    }

    /**
     * Nominal bytes this envelope costs in a memory-tracked mailbox: the envelope itself, plus the payload length
     * of a serialized envelope (whether decoded yet or not, so the cost never changes while queued), or the
     * event's own cost when it implements {@link io.troupe.memquota.HasMemoryCost}.
     *
     * @return bytes.
     */
    public long memoryCost()
    {
        if (event instanceof WirePayload)
        {
            return ENVELOPE_COST_BYTES + ((WirePayload)event).length();
        }
        return ENVELOPE_COST_BYTES + (event instanceof HasMemoryCost ?
            Math.max(0, ((HasMemoryCost)event).memoryCost()) : 0);
    }

    /**
     * Stamps the time a memory-tracked mailbox accepted the envelope. Runtime use.
     *
     * @param nowNs coarse monotonic time.
     */
    public void stampEnqueued(final long nowNs)
    {
        this.enqueuedNs = nowNs;
    }

    /**
     * The runtime is done with this envelope: repays its cost unless that was taken over, and tells the
     * transport that received it, if it asked (a receipt). Idempotent.
     */
    public void settle()
    {
        final int owed = cost;
        if (account != null && owed >= 0)
        {
            cost = owed | REPAID;
            account.repay(owed);
        }
        if ((flags & SERIALIZED) != 0)
        {
            ((WirePayload)event).settle();
        }
    }

    /**
     * Finishes an envelope whose handling context repaid its cost (see {@link #accountToRepay}): only a wire
     * payload is left to settle.
     */
    public void settleHandled()
    {
        if ((flags & SERIALIZED) != 0)
        {
            ((WirePayload)event).settle();
        }
    }

    /**
     * Whether this is an {@link Undelivered} notice, judged without decoding a serialized payload.
     *
     * @return true for a notice.
     */
    public boolean isUndeliveredNotice()
    {
        return type == Undelivered.TYPE || event instanceof Undelivered;
    }

    /**
     * Points this envelope at another recipient: the actor a service id maps to. Runtime use.
     *
     * @param actor the new recipient.
     */
    public void rewriteRecipient(final ActorId actor)
    {
        this.recipient = actor;
    }

    /**
     * Names the node of a forward target that says "this node" (node 0), before the envelope leaves the node:
     * on the recipient's node, node 0 would mean that node. Runtime use.
     *
     * @param nodeId this node's id.
     */
    public void resolveForwardTarget(final int nodeId)
    {
        if (forwardTo != null && forwardTo.nodeId() == 0)
        {
            forwardTo = forwardTo.onNode(nodeId);
        }
    }

    /** Turns this envelope towards its forward target, once: the target does not forward again. Runtime use. */
    public void redirectToForwardTarget()
    {
        this.recipient = forwardTo;
        this.forwardTo = null;
        this.flags &= ~FLAG_FORWARD_ON_NONDELIVERY;
    }

    @Override
    public String toString()
    {
        return "Envelope{to=" + recipient + ", from=" + sender + ", type=" + type + ", flags=0x" +
            Integer.toHexString(flags()) + ", cookie=" + cookie + ", event=" + event +
            (account == null ? "" : ", account=" + account.ownerNode() + ":" + Long.toHexString(account.accountId()) +
                ", cost=" + cost()) + '}';
    }
}
