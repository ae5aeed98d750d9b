package io.troupe.serialization.wire;

import io.troupe.serialization.internal.sbe.AckDecoder;
import io.troupe.serialization.internal.sbe.ChunkDecoder;
import io.troupe.serialization.internal.sbe.CreditDeltasDecoder;
import io.troupe.serialization.internal.sbe.DirectoryUpdateDecoder;
import io.troupe.serialization.internal.sbe.EnvelopeDecoder;
import io.troupe.serialization.internal.sbe.ForwardedEnvelopeDecoder;
import io.troupe.serialization.internal.sbe.GoodbyeDecoder;
import io.troupe.serialization.internal.sbe.HandshakeDecoder;
import io.troupe.serialization.internal.sbe.HeartbeatDecoder;
import io.troupe.serialization.internal.sbe.MessageHeaderDecoder;
import io.troupe.serialization.internal.sbe.UndeliveredNoticeDecoder;

/**
 * Constants of Troupe's wire format: the schema's identity and versions, the template ids, and the limits a
 * frame is validated against. A frame is one SBE message: an 8-byte header (block length, template id,
 * schema id, version; little-endian uint16 each), the message's fixed block, its repeating groups, then its
 * variable-length fields.
 *
 * <pre>
 *   0        2        4        6        8
 *   +--------+--------+--------+--------+---------------------+--------+---------------+
 *   | block  |template| schema |version | fixed block         | groups | var data ...  |
 *   | length |   id   |   id   |        | (blockLength bytes) |        | (len + bytes) |
 *   +--------+--------+--------+--------+---------------------+--------+---------------+
 * </pre>
 */
public final class WireFormat
{
    /** The schema id every Troupe frame carries. */
    public static final int SCHEMA_ID = EnvelopeDecoder.SCHEMA_ID;
    /** The schema version this build writes. */
    public static final int SCHEMA_VERSION = EnvelopeDecoder.SCHEMA_VERSION;
    /** The oldest schema version this build reads. */
    public static final int MIN_SUPPORTED_VERSION = 1;
    /** Bytes of the message header. */
    public static final int HEADER_LENGTH = MessageHeaderDecoder.ENCODED_LENGTH;
    /** Bytes of a variable-length field's length prefix. */
    public static final int VAR_DATA_HEADER_LENGTH = 4;
    /** Bytes of a repeating group's header (block length and count, uint16 each). */
    public static final int GROUP_HEADER_LENGTH = 4;
    /**
     * Most entries a repeating group may be written with: 65,534, since SBE keeps the uint16 count's top value
     * (65,535) as its null value and the generated encoders refuse it.
     */
    public static final int MAX_GROUP_ENTRIES = CreditDeltasDecoder.DeltasDecoder.countMaxValue();

    /** Template id of an envelope (one event for one actor). */
    public static final int ENVELOPE = EnvelopeDecoder.TEMPLATE_ID;
    /** Template id of an envelope with a forward-on-nondelivery target (since version 5). */
    public static final int FORWARDED_ENVELOPE = ForwardedEnvelopeDecoder.TEMPLATE_ID;
    /** Template id of a handshake step. */
    public static final int HANDSHAKE = HandshakeDecoder.TEMPLATE_ID;
    /** Template id of a heartbeat. */
    public static final int HEARTBEAT = HeartbeatDecoder.TEMPLATE_ID;
    /** Template id of a cumulative acknowledgement. */
    public static final int ACK = AckDecoder.TEMPLATE_ID;
    /** Template id of a batch of credit deltas. */
    public static final int CREDIT_DELTAS = CreditDeltasDecoder.TEMPLATE_ID;
    /** Template id of an undelivered notice. */
    public static final int UNDELIVERED_NOTICE = UndeliveredNoticeDecoder.TEMPLATE_ID;
    /** Template id of a directory update. */
    public static final int DIRECTORY_UPDATE = DirectoryUpdateDecoder.TEMPLATE_ID;
    /** Template id of a goodbye. */
    public static final int GOODBYE = GoodbyeDecoder.TEMPLATE_ID;
    /** Template id of a chunk: a slice of a frame too large for one transport message. */
    public static final int CHUNK = ChunkDecoder.TEMPLATE_ID;
    /** Bytes a chunk frame adds to the slice it carries. */
    public static final int CHUNK_OVERHEAD = HEADER_LENGTH + ChunkDecoder.BLOCK_LENGTH + VAR_DATA_HEADER_LENGTH;
    /** Bytes of a directory update frame with no entries. */
    public static final int DIRECTORY_UPDATE_EMPTY_LENGTH =
        HEADER_LENGTH + DirectoryUpdateDecoder.BLOCK_LENGTH + GROUP_HEADER_LENGTH;
    /** Bytes each entry adds to a directory update frame. */
    public static final int DIRECTORY_ENTRY_LENGTH = DirectoryUpdateDecoder.EntriesDecoder.sbeBlockLength();
    /** First template id reserved for the client protocol (connect, lookup, send, reply). */
    public static final int CLIENT_TEMPLATES_FIRST = 64;
    /** Last template id reserved for the client protocol. */
    public static final int CLIENT_TEMPLATES_LAST = 127;

    /** Default largest frame accepted: 4 MiB. */
    public static final int DEFAULT_MAX_FRAME_BYTES = 4 << 20;
    /** Smallest setting of the largest frame accepted: a header plus the largest fixed block. */
    public static final int MIN_MAX_FRAME_BYTES = 256;
    /** Longest cluster id in a handshake, in bytes of UTF-8. */
    public static final int MAX_CLUSTER_ID_BYTES = 255;
    /** Longest handshake challenge or proof. */
    public static final int MAX_AUTH_BYTES = 256;
    /** Longest free-text detail (handshake refusal, goodbye). */
    public static final int MAX_DETAIL_BYTES = 1024;
    /** Longest type table a handshake step may carry: {@link #MAX_TYPE_TABLE_ENTRIES} entries of 8 bytes. */
    public static final int MAX_TYPE_TABLE_BYTES = 6144;
    /** Most application event types a node may announce in its handshake (so the step fits a control frame). */
    public static final int MAX_TYPE_TABLE_ENTRIES = MAX_TYPE_TABLE_BYTES / 8;
    /** The longest handshake step: every variable-length field at its limit. A node accepts frames this long
     * whatever its largest event. */
    public static final int MAX_HANDSHAKE_BYTES = HEADER_LENGTH + HandshakeDecoder.BLOCK_LENGTH +
        6 * VAR_DATA_HEADER_LENGTH + MAX_CLUSTER_ID_BYTES + 3 * MAX_AUTH_BYTES + MAX_DETAIL_BYTES +
        MAX_TYPE_TABLE_BYTES;

    private WireFormat()
    {
    }

    /**
     * Bytes of an envelope frame with a payload of the given length.
     *
     * @param payloadLength bytes of the payload.
     * @return the frame's length.
     */
    public static int envelopeLength(final int payloadLength)
    {
        return HEADER_LENGTH + EnvelopeDecoder.BLOCK_LENGTH + VAR_DATA_HEADER_LENGTH + payloadLength;
    }

    /**
     * Bytes of an envelope frame with a payload of the given length, with or without a forward target (a
     * forwarded envelope is 16 bytes longer).
     *
     * @param payloadLength bytes of the payload.
     * @param forwarded     whether the frame carries a forward target.
     * @return the frame's length.
     */
    public static int envelopeLength(final int payloadLength, final boolean forwarded)
    {
        return HEADER_LENGTH + (forwarded ? ForwardedEnvelopeDecoder.BLOCK_LENGTH : EnvelopeDecoder.BLOCK_LENGTH) +
            VAR_DATA_HEADER_LENGTH + payloadLength;
    }
}
