package io.troupe.interconnect;

import io.troupe.serialization.wire.DirectoryEntry;

import java.util.List;

/**
 * A peer's directory update as it arrived: verified (sealed in the peer's current session, naming the peer and
 * that session's incarnation) and checked (every entry names a service and an actor of the peer's own node).
 *
 * @param nodeId      the peer.
 * @param incarnation the peer's incarnation.
 * @param version     the peer's directory version this update brings it to; the parts of one snapshot share it.
 * @param snapshot    whether the entries are (part of) the peer's whole directory rather than changes.
 * @param entries     the entries, in order.
 */
public record DirectoryUpdate(int nodeId, long incarnation, long version, boolean snapshot,
    List<DirectoryEntry> entries)
{
}
