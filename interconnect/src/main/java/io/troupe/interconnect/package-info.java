/**
 * The interconnect: Aeron transport between Troupe nodes, with sessions per peer incarnation, an
 * authenticated handshake, heartbeats and failure detection, and tracked delivery.
 */
package io.troupe.interconnect;
