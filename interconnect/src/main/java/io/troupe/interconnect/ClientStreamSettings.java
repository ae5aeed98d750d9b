package io.troupe.interconnect;

/**
 * The part of a node's transport settings that concerns client processes ({@code cluster-client}): the two streams
 * clients send on to the node's endpoint, the longest term their publications may have, and how many of their images
 * one source address may hold. Read only when clients are admitted ({@link #imagesPerAddress} above 0). Held by
 * {@link InterconnectConfig#clientStreams()} and checked with the rest by {@link InterconnectConfig#conclude}.
 */
public final class ClientStreamSettings
{
    private int controlStreamId = InterconnectSettings.CLIENT_CONTROL_STREAM.defaultValue();
    private int dataStreamId = InterconnectSettings.CLIENT_DATA_STREAM.defaultValue();
    private int termLength = InterconnectSettings.CLIENT_TERM_LENGTH.defaultValue();
    private int imagesPerAddress;

    /** The defaults: streams 20 and 21, terms up to 256 KiB, no client admitted. */
    public ClientStreamSettings()
    {
        // the defaults are the fields' initial values
    }

    /**
     * The stream id on which clients send their handshake and heartbeats to this node's endpoint.
     *
     * @param value a stream id different from the node streams'.
     * @return this.
     */
    public ClientStreamSettings controlStreamId(final int value)
    {
        this.controlStreamId = value;
        return this;
    }

    /**
     * The stream id of clients' handshakes and heartbeats.
     *
     * @return the value.
     */
    public int controlStreamId()
    {
        return controlStreamId;
    }

    /**
     * The stream id on which clients send their events to this node's endpoint.
     *
     * @param value a stream id different from every other.
     * @return this.
     */
    public ClientStreamSettings dataStreamId(final int value)
    {
        this.dataStreamId = value;
        return this;
    }

    /**
     * The stream id of clients' events.
     *
     * @return the value.
     */
    public int dataStreamId()
    {
        return dataStreamId;
    }

    /**
     * The longest term a client's publication may have: an image of a longer one is refused before a byte of it
     * is read, like a node's ({@code ImageGuard}).
     *
     * @param value a power of 2, 64 KiB..1 GiB.
     * @return this.
     */
    public ClientStreamSettings termLength(final int value)
    {
        this.termLength = value;
        return this;
    }

    /**
     * The longest term a client's publication may have.
     *
     * @return the value.
     */
    public int termLength()
    {
        return termLength;
    }

    /**
     * How many images of each client stream one source address may hold on this node's driver at once (a client
     * has one per stream while it is connected, two for a moment when it reconnects): 0, the default, admits no
     * client image at all. The node's client ingress sets it from its own limit.
     *
     * @param value 0..65,536.
     * @return this.
     */
    public ClientStreamSettings imagesPerAddress(final int value)
    {
        this.imagesPerAddress = value;
        return this;
    }

    /**
     * How many images of each client stream one source address may hold; 0 admits none.
     *
     * @return the value.
     */
    public int imagesPerAddress()
    {
        return imagesPerAddress;
    }

    /**
     * Takes every setting of another.
     *
     * @param other the settings to copy.
     * @return this.
     */
    public ClientStreamSettings copyFrom(final ClientStreamSettings other)
    {
        return controlStreamId(other.controlStreamId).dataStreamId(other.dataStreamId).termLength(other.termLength)
            .imagesPerAddress(other.imagesPerAddress);
    }
}
