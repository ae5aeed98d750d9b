/**
 * Troupe's wire format: SBE-encoded frames, their validation ({@link io.troupe.serialization.wire.FrameDecoder}),
 * and the event codecs that turn events into payloads and back. The generated SBE codecs in
 * {@code io.troupe.serialization.internal.sbe} are an implementation detail.
 */
package io.troupe.serialization;
