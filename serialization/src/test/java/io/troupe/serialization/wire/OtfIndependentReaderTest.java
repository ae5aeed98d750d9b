package io.troupe.serialization.wire;

import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.ServiceId;
import io.troupe.actor.UndeliveredReason;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import uk.co.real_logic.sbe.ir.Ir;
import uk.co.real_logic.sbe.ir.Signal;
import uk.co.real_logic.sbe.ir.Token;
import uk.co.real_logic.sbe.otf.AbstractTokenListener;
import uk.co.real_logic.sbe.otf.OtfHeaderDecoder;
import uk.co.real_logic.sbe.otf.OtfMessageDecoder;
import uk.co.real_logic.sbe.otf.Types;
import uk.co.real_logic.sbe.xml.IrGenerator;
import uk.co.real_logic.sbe.xml.MessageSchema;
import uk.co.real_logic.sbe.xml.ParserOptions;
import uk.co.real_logic.sbe.xml.XmlSchemaParser;

import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.troupe.serialization.wire.FrameRoundTripTest.assertFields;
import static io.troupe.serialization.wire.FrameRoundTripTest.fields;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An independent reader: frames written by {@link FrameEncoder} are decoded with SBE's on-the-fly decoder,
 * driven only by the IR of the schema file parsed at test time, and every field is checked against what was
 * written. If the encoder, the generated codecs or the hand-written views drifted from
 * {@code troupe-wire.xml}, this would disagree: the schema file is the contract, not the Java code.
 *
 * <p>Integer fields are collected as Long, enum fields as the name of their valid value, var data as bytes
 * or, with a character encoding, as a String, and group entries as a list of maps.
 */
class OtfIndependentReaderTest
{
    private static final ActorId RECIPIENT = ActorId.of(70, 0xFEDC_BA98_7654_3210L, 0x7FFF_FFFF, 2047);
    private static final ActorId SENDER = ActorId.fromRaw(Long.MIN_VALUE, Long.MIN_VALUE);

    private static Ir ir;
    private static OtfHeaderDecoder headerDecoder;

    private final FrameEncoder encoder = new FrameEncoder();
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[8192]);

    @BeforeAll
    static void parseTheSchemaFile() throws Exception
    {
        try (InputStream schemaFile = OtfIndependentReaderTest.class.getResourceAsStream("/sbe/troupe-wire.xml"))
        {
            assertThat(schemaFile).as("troupe-wire.xml on the class path").isNotNull();
            final MessageSchema schema = XmlSchemaParser.parse(schemaFile,
                ParserOptions.builder().stopOnError(true).warningsFatal(true).build());
            ir = new IrGenerator().generate(schema);
        }
        headerDecoder = new OtfHeaderDecoder(ir.headerStructure());
    }

    @Test
    void schemaIdentityAndHeaderMatchWireFormat()
    {
        assertThat(ir.id()).isEqualTo(WireFormat.SCHEMA_ID);
        assertThat(ir.version()).isEqualTo(WireFormat.SCHEMA_VERSION);
        assertThat(ir.byteOrder()).isEqualTo(FrameSamples.ORDER);
        assertThat(headerDecoder.encodedLength()).isEqualTo(WireFormat.HEADER_LENGTH);
    }

    @Test
    void everyTemplateOfTheSchemaHasTheValidatorsLayoutAndNoOther()
    {
        final List<Integer> schemaTemplates = new ArrayList<>();
        for (final List<Token> tokens : ir.messages())
        {
            final Token message = tokens.get(0);
            schemaTemplates.add(message.id());
            final TemplateLayout layout = TemplateLayout.of(message.id());
            assertThat(layout).as("layout of " + message.name()).isNotNull();
            assertThat(layout.name).isEqualTo(message.name());
            for (int version = WireFormat.MIN_SUPPORTED_VERSION; version <= WireFormat.SCHEMA_VERSION; version++)
            {
                assertThat(layout.minBlockLength(version)).as(message.name() + " block of version " + version)
                    .isEqualTo(blockEnd(tokens, version));
            }
            assertThat(layout.minBlockLength(WireFormat.SCHEMA_VERSION)).as(message.name() + " block")
                .isEqualTo(message.encodedLength());
            assertThat(layout.minBlockLength(WireFormat.SCHEMA_VERSION + 1))
                .as(message.name() + " block of a newer version")
                .isEqualTo(message.encodedLength());
            if (message.id() == WireFormat.ENVELOPE)
            {
                // FrameDecoder.decodeEnvelope checks one block length for every version
                assertThat(layout.minBlockLength(WireFormat.SCHEMA_VERSION))
                    .isEqualTo(layout.minBlockLength(WireFormat.MIN_SUPPORTED_VERSION));
            }

            final List<Integer> groupBlocks = new ArrayList<>();
            int varData = 0;
            for (final Token token : tokens)
            {
                if (token.signal() == Signal.BEGIN_GROUP)
                {
                    groupBlocks.add(token.encodedLength());
                }
                else if (token.signal() == Signal.BEGIN_VAR_DATA)
                {
                    varData++;
                }
            }
            assertThat(layout.groupMinBlockLengths).as(message.name() + " groups")
                .containsExactly(groupBlocks.stream().mapToInt(Integer::intValue).toArray());
            assertThat(layout.varDataMaxLengths).as(message.name() + " var data").hasSize(varData);
        }
        final List<Integer> layoutTemplates = new ArrayList<>();
        for (int templateId = 0; templateId < TemplateLayout.TABLE_SIZE; templateId++)
        {
            if (TemplateLayout.of(templateId) != null)
            {
                layoutTemplates.add(templateId);
            }
        }

        assertThat(layoutTemplates).containsExactlyInAnyOrderElementsOf(schemaTemplates);
        assertThat(schemaTemplates).containsExactlyInAnyOrder(
            WireFormat.ENVELOPE, WireFormat.HANDSHAKE, WireFormat.HEARTBEAT, WireFormat.ACK, WireFormat.CREDIT_DELTAS,
            WireFormat.UNDELIVERED_NOTICE, WireFormat.DIRECTORY_UPDATE, WireFormat.GOODBYE, WireFormat.CHUNK,
            WireFormat.FORWARDED_ENVELOPE);
    }

    @Test
    void envelope()
    {
        final byte[] payload = FrameRoundTripTest.randomBytes(300, 21);
        final int flags = Envelope.withChannel(Envelope.FLAG_FORWARD_ON_NONDELIVERY, 9);
        final int length = encoder.encodeEnvelope(scratch, 0, new Envelope(RECIPIENT, SENDER, -123_456, flags,
            Long.MAX_VALUE, null, null), 1_048_575, -42L, Integer.MAX_VALUE, new UnsafeBuffer(payload), 0,
            payload.length);

        assertFields(read(length, "Envelope"), fields(
            "recipientRaw1", RECIPIENT.raw1(), "recipientRaw2", RECIPIENT.raw2(),
            "senderRaw1", SENDER.raw1(), "senderRaw2", SENDER.raw2(),
            "cookie", Long.MAX_VALUE, "accountId", -42L, "eventType", -123_456L, "flags", (long)flags,
            "accountOwnerNode", 1_048_575L, "cost", (long)Integer.MAX_VALUE, "payload", payload));
    }

    @Test
    void envelopeWithAnEmptyPayloadToAService()
    {
        final ServiceId service = ServiceId.of(5, "billing");
        final int length = encoder.beginEnvelope(scratch, 0, service, null, 1, 0, 0L, 0, 0L, 0, null, 0);

        assertFields(read(length, "Envelope"), fields(
            "recipientRaw1", service.raw1(), "recipientRaw2", service.raw2(), "senderRaw1", 0L, "senderRaw2", 0L,
            "cookie", 0L, "accountId", 0L, "eventType", 1L, "flags", 0L, "accountOwnerNode", 0L, "cost", 0L,
            "payload", new byte[0]));
    }

    @Test
    void handshake()
    {
        final byte[] challenge = FrameRoundTripTest.randomBytes(WireFormat.MAX_AUTH_BYTES, 22);
        final int length = encoder.encodeHandshake(scratch, 0, new Handshake(HandshakePhase.WELCOME, "cluster-ß",
            17, 1_700_000_000_001L, 18, -1L, 3, 0xFFFF, challenge, new byte[]{1, 2, 3}, null));

        assertFields(read(length, "Handshake"), fields(
            "incarnation", 1_700_000_000_001L, "peerIncarnation", -1L, "nodeId", 17L, "peerNodeId", 18L,
            "minProtocolVersion", 3L, "maxProtocolVersion", 65_535L, "phase", "WELCOME", "frameProtection", 1L,
            "clusterId", "cluster-ß", "challenge", challenge, "proof", new byte[]{1, 2, 3}, "detail", "",
            "types", new byte[0], "echo", new byte[0]));
    }

    @Test
    void handshakeRefusal()
    {
        final int length = encoder.encodeHandshake(scratch, 0, new Handshake(HandshakePhase.REFUSE, "c", 1, 2L, 3, 4L,
            0, 0, null, null, "wrong secret"));

        assertThat(read(length, "Handshake")).containsEntry("phase", "REFUSE").containsEntry("detail", "wrong secret")
            .containsEntry("clusterId", "c");
    }

    @Test
    void heartbeatAndAck()
    {
        int length = encoder.encodeHeartbeat(scratch, 0, -1, Long.MIN_VALUE, 987_654_321_000L, Long.MAX_VALUE,
            987_600_000_000L, -5L);
        assertFields(read(length, "Heartbeat"), fields(
            "incarnation", Long.MIN_VALUE, "sendTimeNs", 987_654_321_000L, "sequence", Long.MAX_VALUE, "nodeId", -1L,
            "echoTimeNs", 987_600_000_000L, "echoDelayNs", -5L));

        length = encoder.encodeAck(scratch, 0, 4, 5L, 6, 7L);
        assertFields(read(length, "Ack"), fields("incarnation", 5L, "ackedPosition", 7L, "nodeId", 4L, "streamId", 6L));
    }

    @Test
    void creditDeltas()
    {
        final int[] owners = {1, Integer.MIN_VALUE, 3};
        final long[] accounts = {10L, Long.MAX_VALUE, 30L};
        final long[] deltas = {-100L, 0L, Long.MIN_VALUE};
        final int length = encoder.encodeCreditDeltas(scratch, 0, 8, 9L, owners, accounts, deltas, 3);

        final List<Map<String, Object>> entries = new ArrayList<>();
        for (int i = 0; i < 3; i++)
        {
            entries.add(fields("accountId", accounts[i], "delta", deltas[i], "accountOwnerNode", (long)owners[i]));
        }
        assertFields(read(length, "CreditDeltas"), fields("incarnation", 9L, "nodeId", 8L, "deltas", entries));

        final int empty = encoder.encodeCreditDeltas(scratch, 0, 8, 9L, owners, accounts, deltas, 0);
        assertFields(read(empty, "CreditDeltas"), fields("incarnation", 9L, "nodeId", 8L, "deltas", List.of()));
    }

    @Test
    void undeliveredNoticeForEveryReason()
    {
        final String[] codes = {"ACTOR_UNKNOWN", "DISCONNECTED", "COLLAPSED", "SHED", "SHUTDOWN"};
        assertThat(UndeliveredReason.values()).hasSize(codes.length + 1).endsWith(UndeliveredReason.REFUSED);
        assertThatThrownBy(() -> encoder.encodeUndeliveredNotice(scratch, 0, SENDER, RECIPIENT, 77, -5L,
            UndeliveredReason.REFUSED, false)).as("told to clients in an envelope, not in this frame")
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("REFUSED");
        for (final UndeliveredReason reason : Arrays.copyOf(UndeliveredReason.values(), codes.length))
        {
            final int length = encoder.encodeUndeliveredNotice(scratch, 0, SENDER, RECIPIENT, 77, -5L, reason, true);

            assertFields(read(length, "UndeliveredNotice"), fields(
                "senderRaw1", SENDER.raw1(), "senderRaw2", SENDER.raw2(),
                "recipientRaw1", RECIPIENT.raw1(), "recipientRaw2", RECIPIENT.raw2(),
                "cookie", -5L, "eventType", 77L, "reason", codes[reason.ordinal()], "unsure", "TRUE"));
        }
    }

    @Test
    void directoryUpdate()
    {
        final ServiceId orders = ServiceId.of(3, "orders");
        final ServiceId odd = FrameSamples.service(-1L, Long.MIN_VALUE);
        final int length = encoder.encodeDirectoryUpdate(scratch, 0, 3, 44L, 45L, false, List.of(
            new DirectoryEntry(orders, RECIPIENT, DirectoryOp.REGISTER),
            new DirectoryEntry(odd, SENDER, DirectoryOp.UNREGISTER)));

        assertFields(read(length, "DirectoryUpdate"), fields(
            "incarnation", 44L, "directoryVersion", 45L, "nodeId", 3L, "snapshot", "FALSE", "entries", List.of(
                fields("serviceRaw1", orders.raw1(), "serviceRaw2", orders.raw2(), "actorRaw1", RECIPIENT.raw1(),
                    "actorRaw2", RECIPIENT.raw2(), "op", "REGISTER"),
                fields("serviceRaw1", odd.raw1(), "serviceRaw2", odd.raw2(), "actorRaw1", SENDER.raw1(),
                    "actorRaw2", SENDER.raw2(), "op", "UNREGISTER"))));
    }

    @Test
    void goodbyeForEveryReason()
    {
        for (final GoodbyeReason reason : GoodbyeReason.values())
        {
            if (reason == GoodbyeReason.UNKNOWN)
            {
                continue;
            }
            final int length = encoder.encodeGoodbye(scratch, 0, 6, 7L, reason, "see you — later");

            assertFields(read(length, "Goodbye"), fields(
                "incarnation", 7L, "nodeId", 6L, "reason", reason.name(), "detail", "see you — later"));
        }
    }

    @Test
    void everySampleFrameIsReadToItsLastByte()
    {
        for (final int templateId : FrameSamples.TEMPLATES)
        {
            final byte[] frame = FrameSamples.sample(templateId);
            scratch.putBytes(0, frame);

            assertThat(read(frame.length, ir.getMessage(templateId).get(0).name())).isNotEmpty();
        }
    }

    /** Where the last fixed field of a message's block that a version has ends: that version's shortest block. */
    private static int blockEnd(final List<Token> tokens, final int version)
    {
        int end = 0;
        for (int i = 1; i < tokens.size(); i++)
        {
            final Token token = tokens.get(i);
            if (token.signal() == Signal.BEGIN_GROUP || token.signal() == Signal.BEGIN_VAR_DATA)
            {
                break;
            }
            if (token.signal() == Signal.BEGIN_FIELD && token.version() <= version)
            {
                end = Math.max(end, token.offset() + tokens.get(i + 1).encodedLength());
            }
        }
        return end;
    }

    /**
     * Reads the frame at the start of the scratch buffer with the OTF decoder: header first, then the message
     * its template id names, through a buffer that holds exactly the frame.
     */
    private Map<String, Object> read(final int length, final String expectedMessage)
    {
        final DirectBuffer frame = new UnsafeBuffer(scratch.byteArray(), 0, length);
        assertThat(headerDecoder.getSchemaId(frame, 0)).isEqualTo(ir.id());
        assertThat(headerDecoder.getSchemaVersion(frame, 0)).isEqualTo(ir.version());
        final int templateId = headerDecoder.getTemplateId(frame, 0);
        final int blockLength = headerDecoder.getBlockLength(frame, 0);
        final List<Token> tokens = ir.getMessage(templateId);
        assertThat(tokens).as("template " + templateId + " in the schema").isNotNull();
        assertThat(blockLength).isEqualTo(tokens.get(0).encodedLength());

        final FieldCollector collector = new FieldCollector();
        final int end = OtfMessageDecoder.decode(frame, headerDecoder.encodedLength(), ir.version(), blockLength,
            tokens, collector);

        assertThat(collector.messageName).isEqualTo(expectedMessage);
        assertThat(collector.ended).isTrue();
        assertThat(end).as("the OTF decoder ends where the frame ends").isEqualTo(length);
        return collector.fields;
    }

    /** Collects field name to value, group entries as lists of maps. */
    static final class FieldCollector extends AbstractTokenListener
    {
        final Map<String, Object> fields = new LinkedHashMap<>();
        private Map<String, Object> current = fields;
        private List<Map<String, Object>> group;
        String messageName;
        boolean ended;

        @Override
        public void onBeginMessage(final Token token)
        {
            messageName = token.name();
        }

        @Override
        public void onEndMessage(final Token token)
        {
            ended = true;
        }

        @Override
        public void onEncoding(
            final Token fieldToken, final DirectBuffer buffer, final int index, final Token typeToken,
            final int actingVersion)
        {
            put(fieldToken.name(), Types.getLong(buffer, index, typeToken.encoding()));
        }

        @Override
        public void onEnum(
            final Token fieldToken, final DirectBuffer buffer, final int bufferIndex, final List<Token> tokens,
            final int fromIndex, final int toIndex, final int actingVersion)
        {
            final long code = Types.getLong(buffer, bufferIndex, tokens.get(fromIndex).encoding());
            String name = "UNKNOWN(" + code + ")";
            for (int i = fromIndex + 1; i < toIndex; i++)
            {
                final Token validValue = tokens.get(i);
                if (validValue.signal() == Signal.VALID_VALUE && validValue.encoding().constValue().longValue() == code)
                {
                    name = validValue.name();
                }
            }
            put(fieldToken.name(), name);
        }

        @Override
        public void onGroupHeader(final Token token, final int numInGroup)
        {
            group = new ArrayList<>(numInGroup);
            fields.put(token.name(), group);
        }

        @Override
        public void onBeginGroup(final Token token, final int groupIndex, final int numInGroup)
        {
            current = new LinkedHashMap<>();
            group.add(current);
        }

        @Override
        public void onEndGroup(final Token token, final int groupIndex, final int numInGroup)
        {
            current = fields;
        }

        @Override
        public void onVarData(
            final Token fieldToken, final DirectBuffer buffer, final int bufferIndex, final int length,
            final Token typeToken)
        {
            final byte[] bytes = new byte[length];
            buffer.getBytes(bufferIndex, bytes);
            final String characterEncoding = typeToken.encoding().characterEncoding();
            put(fieldToken.name(), characterEncoding == null ? bytes :
                new String(bytes,
                    characterEncoding.isEmpty() ? StandardCharsets.UTF_8 : Charset.forName(characterEncoding)));
        }

        private void put(final String name, final Object value)
        {
            if (current.put(name, value) != null)
            {
                throw new IllegalStateException("field " + name + " read twice");
            }
        }
    }
}
