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
import io.troupe.serialization.internal.sbe.UndeliveredNoticeDecoder;

import java.util.Arrays;

/**
 * The shape of one message as the validator needs it: the shortest fixed block it accepts, its repeating
 * groups (shortest entry block each) and its variable-length fields (longest each), in schema order.
 *
 * <p>A later version appends fields to a block, so the shortest block depends on the version the frame says
 * it was written with: a frame of version N must carry every field of version N (a heartbeat of version 1 has
 * 28 bytes, one of version 2 the 44 with its echo), else a view would read fields past the block. A frame of a
 * version newer than this build's must carry at least this build's block; the bytes after it are skipped.
 */
final class TemplateLayout
{
    /** Largest template id with a layout, plus one. */
    static final int TABLE_SIZE = 128;
    static final int MAX_GROUPS = 1;
    static final int MAX_VAR_DATA = 6;

    private static final int[] NONE = new int[0];
    private static final TemplateLayout[] TABLE = buildTable();

    final int templateId;
    final String name;
    /** Shortest block accepted per version, indexed by version (0 unused), up to this build's version. */
    private final int[] minBlockLengths;
    final int[] groupMinBlockLengths;
    final int[] varDataMaxLengths;
    /** The version that added each variable-length field: a frame of an older version ends before it. */
    final int[] varDataSinceVersions;

    private TemplateLayout(
        final int templateId,
        final String name,
        final int[] minBlockLengths,
        final int[] groupMinBlockLengths,
        final int[] varDataMaxLengths)
    {
        this(templateId, name, minBlockLengths, groupMinBlockLengths, varDataMaxLengths,
            new int[varDataMaxLengths.length]);
    }

    private TemplateLayout(
        final int templateId,
        final String name,
        final int[] minBlockLengths,
        final int[] groupMinBlockLengths,
        final int[] varDataMaxLengths,
        final int[] varDataSinceVersions)
    {
        this.templateId = templateId;
        this.name = name;
        this.minBlockLengths = minBlockLengths;
        this.groupMinBlockLengths = groupMinBlockLengths;
        this.varDataMaxLengths = varDataMaxLengths;
        this.varDataSinceVersions = varDataSinceVersions;
    }

    /**
     * The shortest block a frame of this template and version may have: the end of the last field that version
     * has. Versions newer than this build's get this build's block.
     *
     * @param version the frame's schema version, at least {@link WireFormat#MIN_SUPPORTED_VERSION}.
     */
    int minBlockLength(final int version)
    {
        return minBlockLengths[Math.min(version, WireFormat.SCHEMA_VERSION)];
    }

    /** The layout of a template id, or null if this build does not know it. */
    static TemplateLayout of(final int templateId)
    {
        return templateId >= 0 && templateId < TABLE_SIZE ? TABLE[templateId] : null;
    }

    private static TemplateLayout[] buildTable()
    {
        final TemplateLayout[] table = new TemplateLayout[TABLE_SIZE];
        add(table, new TemplateLayout(EnvelopeDecoder.TEMPLATE_ID, "Envelope", unchanged(EnvelopeDecoder.BLOCK_LENGTH),
            NONE, new int[]{Integer.MAX_VALUE}));
        // version 5 added the forwarded envelope: the envelope's block and the forward target
        add(table, new TemplateLayout(ForwardedEnvelopeDecoder.TEMPLATE_ID, "ForwardedEnvelope",
            unchanged(ForwardedEnvelopeDecoder.BLOCK_LENGTH), NONE, new int[]{Integer.MAX_VALUE}));
        // version 3 appended the sender's event types; version 4 the frame protection (block) and the echo
        final int handshakeV3Block = HandshakeDecoder.frameProtectionEncodingOffset();
        add(table, new TemplateLayout(HandshakeDecoder.TEMPLATE_ID, "Handshake",
            byVersion(handshakeV3Block, handshakeV3Block, handshakeV3Block, HandshakeDecoder.BLOCK_LENGTH,
                HandshakeDecoder.BLOCK_LENGTH),
            NONE, new int[]{
                WireFormat.MAX_CLUSTER_ID_BYTES, WireFormat.MAX_AUTH_BYTES, WireFormat.MAX_AUTH_BYTES,
                WireFormat.MAX_DETAIL_BYTES, WireFormat.MAX_TYPE_TABLE_BYTES, WireFormat.MAX_AUTH_BYTES},
            new int[]{1, 1, 1, 1, HandshakeDecoder.typesSinceVersion(), HandshakeDecoder.echoSinceVersion()}));
        // version 2 appended the echo of the peer's last heartbeat
        add(table, new TemplateLayout(HeartbeatDecoder.TEMPLATE_ID, "Heartbeat",
            byVersion(HeartbeatDecoder.echoTimeNsEncodingOffset(), HeartbeatDecoder.BLOCK_LENGTH,
                HeartbeatDecoder.BLOCK_LENGTH, HeartbeatDecoder.BLOCK_LENGTH, HeartbeatDecoder.BLOCK_LENGTH),
            NONE, NONE));
        add(table, new TemplateLayout(AckDecoder.TEMPLATE_ID, "Ack", unchanged(AckDecoder.BLOCK_LENGTH), NONE, NONE));
        add(table, new TemplateLayout(CreditDeltasDecoder.TEMPLATE_ID, "CreditDeltas",
            unchanged(CreditDeltasDecoder.BLOCK_LENGTH), new int[]{CreditDeltasDecoder.DeltasDecoder.sbeBlockLength()},
            NONE));
        add(table, new TemplateLayout(UndeliveredNoticeDecoder.TEMPLATE_ID, "UndeliveredNotice",
            unchanged(UndeliveredNoticeDecoder.BLOCK_LENGTH), NONE, NONE));
        add(table, new TemplateLayout(DirectoryUpdateDecoder.TEMPLATE_ID, "DirectoryUpdate",
            unchanged(DirectoryUpdateDecoder.BLOCK_LENGTH),
            new int[]{DirectoryUpdateDecoder.EntriesDecoder.sbeBlockLength()}, NONE));
        add(table, new TemplateLayout(GoodbyeDecoder.TEMPLATE_ID, "Goodbye", unchanged(GoodbyeDecoder.BLOCK_LENGTH),
            NONE, new int[]{WireFormat.MAX_DETAIL_BYTES}));
        add(table, new TemplateLayout(ChunkDecoder.TEMPLATE_ID, "Chunk", unchanged(ChunkDecoder.BLOCK_LENGTH),
            NONE, new int[]{Integer.MAX_VALUE}));
        return table;
    }

    /** A block of the same length in every version. */
    private static int[] unchanged(final int blockLength)
    {
        final int[] lengths = new int[WireFormat.SCHEMA_VERSION + 1];
        Arrays.fill(lengths, blockLength);
        return lengths;
    }

    /** A block that grew: the argument at index i is the block of version i + 1, up to this build's version. */
    private static int[] byVersion(final int... blockLengths)
    {
        if (blockLengths.length != WireFormat.SCHEMA_VERSION)
        {
            throw new IllegalStateException("a block length per schema version 1.." + WireFormat.SCHEMA_VERSION +
                " expected, got " + blockLengths.length);
        }
        final int[] lengths = new int[WireFormat.SCHEMA_VERSION + 1];
        System.arraycopy(blockLengths, 0, lengths, 1, blockLengths.length);
        lengths[0] = blockLengths[0];
        return lengths;
    }

    private static void add(final TemplateLayout[] table, final TemplateLayout layout)
    {
        if (layout.groupMinBlockLengths.length > MAX_GROUPS || layout.varDataMaxLengths.length > MAX_VAR_DATA)
        {
            throw new IllegalStateException("layout of " + layout.name + " exceeds the validator's scratch space");
        }
        table[layout.templateId] = layout;
    }
}
