package io.troupe.serialization;

import io.troupe.serialization.internal.sbe.AckDecoder;
import io.troupe.serialization.internal.sbe.ChunkDecoder;
import io.troupe.serialization.internal.sbe.CreditDeltasDecoder;
import io.troupe.serialization.internal.sbe.DirectoryUpdateDecoder;
import io.troupe.serialization.internal.sbe.EnvelopeDecoder;
import io.troupe.serialization.internal.sbe.GoodbyeDecoder;
import io.troupe.serialization.internal.sbe.HandshakeDecoder;
import io.troupe.serialization.internal.sbe.HeartbeatDecoder;
import io.troupe.serialization.internal.sbe.UndeliveredNoticeDecoder;

/**
 * The shape of one message as the validator needs it: the shortest fixed block it accepts, its repeating
 * groups (shortest entry block each) and its variable-length fields (longest each), in schema order.
 *
 * <p>Every field of schema version 1 exists since version 1, so the shortest block is the whole block of
 * version 1. A later version that adds fields appends them, and frames of this version stay readable.
 */
final class TemplateLayout
{
    /** Largest template id with a layout, plus one. */
    static final int TABLE_SIZE = 128;
    static final int MAX_GROUPS = 1;
    static final int MAX_VAR_DATA = 4;

    private static final int[] NONE = new int[0];
    private static final TemplateLayout[] TABLE = buildTable();

    final int templateId;
    final String name;
    final int minBlockLength;
    final int[] groupMinBlockLengths;
    final int[] varDataMaxLengths;

    private TemplateLayout(
        final int templateId,
        final String name,
        final int minBlockLength,
        final int[] groupMinBlockLengths,
        final int[] varDataMaxLengths)
    {
        this.templateId = templateId;
        this.name = name;
        this.minBlockLength = minBlockLength;
        this.groupMinBlockLengths = groupMinBlockLengths;
        this.varDataMaxLengths = varDataMaxLengths;
    }

    /** The layout of a template id, or null if this build does not know it. */
    static TemplateLayout of(final int templateId)
    {
        return templateId >= 0 && templateId < TABLE_SIZE ? TABLE[templateId] : null;
    }

    private static TemplateLayout[] buildTable()
    {
        final TemplateLayout[] table = new TemplateLayout[TABLE_SIZE];
        add(table, new TemplateLayout(EnvelopeDecoder.TEMPLATE_ID, "Envelope", EnvelopeDecoder.BLOCK_LENGTH,
            NONE, new int[]{Integer.MAX_VALUE}));
        add(table, new TemplateLayout(HandshakeDecoder.TEMPLATE_ID, "Handshake", HandshakeDecoder.BLOCK_LENGTH,
            NONE, new int[]{
                WireFormat.MAX_CLUSTER_ID_BYTES, WireFormat.MAX_AUTH_BYTES, WireFormat.MAX_AUTH_BYTES,
                WireFormat.MAX_DETAIL_BYTES}));
        add(table, new TemplateLayout(HeartbeatDecoder.TEMPLATE_ID, "Heartbeat", HeartbeatDecoder.BLOCK_LENGTH,
            NONE, NONE));
        add(table, new TemplateLayout(AckDecoder.TEMPLATE_ID, "Ack", AckDecoder.BLOCK_LENGTH, NONE, NONE));
        add(table, new TemplateLayout(CreditDeltasDecoder.TEMPLATE_ID, "CreditDeltas", CreditDeltasDecoder.BLOCK_LENGTH,
            new int[]{CreditDeltasDecoder.DeltasDecoder.sbeBlockLength()}, NONE));
        add(table, new TemplateLayout(UndeliveredNoticeDecoder.TEMPLATE_ID, "UndeliveredNotice",
            UndeliveredNoticeDecoder.BLOCK_LENGTH, NONE, NONE));
        add(table, new TemplateLayout(DirectoryUpdateDecoder.TEMPLATE_ID, "DirectoryUpdate",
            DirectoryUpdateDecoder.BLOCK_LENGTH, new int[]{DirectoryUpdateDecoder.EntriesDecoder.sbeBlockLength()}, NONE));
        add(table, new TemplateLayout(GoodbyeDecoder.TEMPLATE_ID, "Goodbye", GoodbyeDecoder.BLOCK_LENGTH,
            NONE, new int[]{WireFormat.MAX_DETAIL_BYTES}));
        add(table, new TemplateLayout(ChunkDecoder.TEMPLATE_ID, "Chunk", ChunkDecoder.BLOCK_LENGTH,
            NONE, new int[]{Integer.MAX_VALUE}));
        return table;
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
