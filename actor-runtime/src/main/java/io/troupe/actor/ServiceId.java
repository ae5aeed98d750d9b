package io.troupe.actor;

/**
 * The address of a well-known service: an {@link ActorId} with the service bit set and up to 12 printable
 * ASCII name bytes in place of local id (bytes 0-7) and hint (bytes 8-11). Node 0 means "this node", not
 * visible from others. A service id is mapped to one actor id on its node; a send to it is rewritten once.
 */
public final class ServiceId extends ActorId
{
    /** Longest name that fits the 12 name bytes. */
    public static final int MAX_NAME_LENGTH = 12;

    ServiceId(final long raw1, final long raw2)
    {
        super(raw1, raw2);
    }

    /**
     * A service id.
     *
     * @param nodeId node that hosts the service, 0 for this node.
     * @param name   1 to 12 printable ASCII characters.
     * @return the id.
     * @throws IllegalArgumentException if the name is empty, too long, or not printable ASCII, or the node
     *                                  id is out of range.
     */
    public static ServiceId of(final int nodeId, final String name)
    {
        checkNodeId(nodeId);
        if (name == null || name.isEmpty())
        {
            throw new IllegalArgumentException("service name must not be empty");
        }
        if (name.length() > MAX_NAME_LENGTH)
        {
            throw new IllegalArgumentException(
                "service name '" + name + "' is " + name.length() + " characters; at most " + MAX_NAME_LENGTH + " fit");
        }
        long low = 0;
        long high = 0;
        for (int i = 0; i < name.length(); i++)
        {
            final char c = name.charAt(i);
            if (c < 0x20 || c > 0x7E)
            {
                throw new IllegalArgumentException(
                    "service name '" + name + "' has a character that is not printable ASCII at index " + i);
            }
            if (i < 8)
            {
                low |= (long)c << (8 * i);
            }
            else
            {
                high |= (long)c << (8 * (i - 8));
            }
        }
        return new ServiceId(low, (high << HINT_SHIFT) | SERVICE_BIT | nodeId);
    }

    /**
     * The service name.
     *
     * @return the name, without padding.
     */
    public String name()
    {
        final StringBuilder sb = new StringBuilder(MAX_NAME_LENGTH);
        final long low = raw1();
        final long high = raw2() >>> HINT_SHIFT;
        for (int i = 0; i < MAX_NAME_LENGTH; i++)
        {
            final int c = (int)((i < 8 ? low >>> (8 * i) : high >>> (8 * (i - 8))) & 0xFF);
            if (c == 0)
            {
                break;
            }
            sb.append((char)c);
        }
        return sb.toString();
    }

    /**
     * The same service on another node.
     *
     * @param nodeId the node, 0 for this node.
     * @return the id.
     */
    @Override
    public ServiceId onNode(final int nodeId)
    {
        checkNodeId(nodeId);
        return new ServiceId(raw1(), (raw2() & ~NODE_MASK) | nodeId);
    }

    /**
     * {@code [node:@name]}.
     *
     * @return the printable, parseable form.
     */
    @Override
    public String toString()
    {
        return "[" + nodeId() + ":@" + name() + ']';
    }
}
