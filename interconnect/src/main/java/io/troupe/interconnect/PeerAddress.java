package io.troupe.interconnect;

/**
 * Where a peer node listens.
 *
 * @param nodeId the peer's node id.
 * @param host   its host name or address.
 * @param port   its UDP port.
 */
public record PeerAddress(int nodeId, String host, int port)
{
    /**
     * The Aeron endpoint {@code host:port}.
     *
     * @return the endpoint.
     */
    public String endpoint()
    {
        return host + ':' + port;
    }
}
