package io.troupe.serialization.wire;

import io.troupe.actor.ActorId;
import io.troupe.actor.ServiceId;
import io.troupe.actor.UndeliveredReason;
import io.troupe.serialization.compat.v6.AckEncoder;
import io.troupe.serialization.compat.v6.BooleanType;
import io.troupe.serialization.compat.v6.CreditDeltasDecoder;
import io.troupe.serialization.compat.v6.CreditDeltasEncoder;
import io.troupe.serialization.compat.v6.DirectoryUpdateDecoder;
import io.troupe.serialization.compat.v6.DirectoryUpdateEncoder;
import io.troupe.serialization.compat.v6.EnvelopeDecoder;
import io.troupe.serialization.compat.v6.EnvelopeEncoder;
import io.troupe.serialization.compat.v6.GoodbyeDecoder;
import io.troupe.serialization.compat.v6.GoodbyeEncoder;
import io.troupe.serialization.compat.v6.HandshakeDecoder;
import io.troupe.serialization.compat.v6.HandshakeEncoder;
import io.troupe.serialization.compat.v6.HeartbeatDecoder;
import io.troupe.serialization.compat.v6.HeartbeatEncoder;
import io.troupe.serialization.compat.v6.MessageHeaderDecoder;
import io.troupe.serialization.compat.v6.MessageHeaderEncoder;
import io.troupe.serialization.compat.v6.ProbeEncoder;
import io.troupe.serialization.compat.v6.UndeliveredNoticeDecoder;
import io.troupe.serialization.compat.v6.UndeliveredNoticeEncoder;
import io.troupe.serialization.compat.v6.UndeliveredReasonCode;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import uk.co.real_logic.sbe.ir.Ir;
import uk.co.real_logic.sbe.ir.Signal;
import uk.co.real_logic.sbe.ir.Token;
import uk.co.real_logic.sbe.otf.OtfHeaderDecoder;
import uk.co.real_logic.sbe.otf.OtfMessageDecoder;
import uk.co.real_logic.sbe.xml.IrGenerator;
import uk.co.real_logic.sbe.xml.ParserOptions;
import uk.co.real_logic.sbe.xml.XmlSchemaParser;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.troupe.serialization.wire.FrameRoundTripTest.assertFields;
import static io.troupe.serialization.wire.FrameRoundTripTest.fields;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Schema evolution both ways, for the version before this build's and the one after.
 *
 * <p>The next version: {@code src/test/resources/sbe/troupe-wire-v6.xml}, a hypothetical version 6 that
 * appends fixed fields to the Envelope and Heartbeat blocks and to the CreditDeltas entry, appends a var data
 * field after the Envelope's payload, appends enum values, and adds template 9 (Probe).
 * <ul>
 * <li>Frames written by version 6's codecs, new fields set, are read by this build's {@link FrameDecoder}
 *     with every field of this build's version right: it reads through the header's block length and the
 *     group's entry length, and skips bytes after the fields it knows.</li>
 * <li>The unknown template is rejected as UNKNOWN_TEMPLATE, counted, not thrown; unknown enum codes read as
 *     UNKNOWN.</li>
 * <li>Frames written by this build's {@link FrameEncoder} are read by version 6's decoders, wrapped with the
 *     header's block length and version: this build's fields right, the new fields at their null values and
 *     the new var data empty.</li>
 * </ul>
 *
 * <p>The previous version: {@code src/test/resources/sbe/troupe-wire-v1.xml}, version 1 frozen as it was
 * before version 2 added the heartbeat's echo. The real schema must still have exactly its fields at version 1;
 * hand-made version 1 heartbeats are read with no echo; and this build's heartbeats are read by an on-the-fly
 * decoder of version 1, as a node of version 1 reads them.
 */
class SchemaCompatibilityTest
{
    private static final ActorId RECIPIENT = ActorId.of(4, 400L, 40, 1);
    private static final ActorId SENDER = ActorId.of(5, 500L, 50);
    private static final int V6 = 6;
    /** A version 1 heartbeat's block: incarnation, sendTimeNs, sequence (int64 each), nodeId (int32). */
    private static final int V1_HEARTBEAT_BLOCK_LENGTH = 28;

    private final RecordingFrameHandler handler = new RecordingFrameHandler();
    private final FrameDecoder decoder = new FrameDecoder(handler);
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4096]);
    private final MessageHeaderEncoder headerV6 = new MessageHeaderEncoder();
    private final FrameEncoder encoder = new FrameEncoder();

    @Test
    void versionSixSchemaIsThisVersionWithAppendedFieldsOnly() throws Exception
    {
        final Ir current = parse("/sbe/troupe-wire.xml");
        final Ir v6 = parse("/sbe/troupe-wire-v6.xml");

        assertThat(current.version()).isEqualTo(WireFormat.SCHEMA_VERSION).isEqualTo(V6 - 1);
        assertThat(v6.id()).isEqualTo(current.id()).isEqualTo(WireFormat.SCHEMA_ID);
        assertThat(v6.version()).isEqualTo(V6);
        assertThat(current.getMessage(9)).isNull();
        assertThat(v6.getMessage(9)).isNotNull();
        for (final List<Token> currentTokens : current.messages())
        {
            final List<Token> v6Tokens = v6.getMessage(currentTokens.get(0).id());
            // everything of versions 1 to 3 identical, and the real schema has nothing newer than its version
            assertThat(shape(v6Tokens, WireFormat.SCHEMA_VERSION)).as(currentTokens.get(0).name())
                .isEqualTo(shape(currentTokens, WireFormat.SCHEMA_VERSION))
                .isEqualTo(shape(currentTokens, Integer.MAX_VALUE));
            assertThat(shape(v6Tokens, 1)).as(currentTokens.get(0).name()).isEqualTo(shape(currentTokens, 1));
        }
        assertThat(EnvelopeDecoder.prioritySinceVersion()).isEqualTo(V6);
        assertThat(EnvelopeDecoder.traceContextSinceVersion()).isEqualTo(V6);
        assertThat(HeartbeatDecoder.echoTimeNsSinceVersion()).isEqualTo(2);
        assertThat(HeartbeatDecoder.echoDelayNsSinceVersion()).isEqualTo(2);
        assertThat(HandshakeDecoder.typesSinceVersion()).isEqualTo(3);
        assertThat(HandshakeDecoder.frameProtectionSinceVersion()).isEqualTo(4);
        assertThat(HandshakeDecoder.echoSinceVersion()).isEqualTo(4);
        assertThat(HeartbeatDecoder.wallClockMsSinceVersion()).isEqualTo(V6);
        assertThat(CreditDeltasDecoder.DeltasDecoder.expiresAtNsSinceVersion()).isEqualTo(V6);
        assertThat(EnvelopeDecoder.BLOCK_LENGTH)
            .isGreaterThan(TemplateLayout.of(WireFormat.ENVELOPE).minBlockLength(WireFormat.SCHEMA_VERSION));
        assertThat(HeartbeatDecoder.BLOCK_LENGTH)
            .isGreaterThan(TemplateLayout.of(WireFormat.HEARTBEAT).minBlockLength(WireFormat.SCHEMA_VERSION));
    }

    @Test
    void versionOneOfTheRealSchemaIsVersionOneAsFrozen() throws Exception
    {
        final Ir current = parse("/sbe/troupe-wire.xml");
        final Ir v1 = parse("/sbe/troupe-wire-v1.xml");

        assertThat(v1.id()).isEqualTo(current.id());
        assertThat(v1.version()).isEqualTo(1).isGreaterThanOrEqualTo(WireFormat.MIN_SUPPORTED_VERSION);
        final List<Integer> v1Templates = new ArrayList<>();
        for (final List<Token> v1Tokens : v1.messages())
        {
            v1Templates.add(v1Tokens.get(0).id());
            final List<Token> currentTokens = current.getMessage(v1Tokens.get(0).id());
            assertThat(currentTokens).as(v1Tokens.get(0).name()).isNotNull();
            assertThat(shape(currentTokens, 1)).as(v1Tokens.get(0).name()).isEqualTo(shape(v1Tokens, 1));
        }
        final List<Integer> added = new ArrayList<>();
        for (final List<Token> currentTokens : current.messages())
        {
            if (!v1Templates.contains(currentTokens.get(0).id()))
            {
                added.add(currentTokens.get(0).id());
                assertThat(currentTokens.get(0).version()).as(currentTokens.get(0).name() + " since").isEqualTo(5);
            }
        }
        assertThat(added).as("templates added after version 1").containsExactly(WireFormat.FORWARDED_ENVELOPE);
        // the one change of version 2: the heartbeat's echo
        for (final List<Token> currentTokens : current.messages())
        {
            final boolean heartbeat = currentTokens.get(0).id() == WireFormat.HEARTBEAT;
            assertThat(shape(currentTokens, 2).equals(shape(currentTokens, 1))).as(currentTokens.get(0).name())
                .isEqualTo(!heartbeat);
        }
        assertThat(TemplateLayout.of(WireFormat.HEARTBEAT).minBlockLength(1))
            .isEqualTo(v1.getMessage(WireFormat.HEARTBEAT).get(0).encodedLength())
            .isEqualTo(V1_HEARTBEAT_BLOCK_LENGTH);
    }

    // ---------------------------------------------------------------------------------------------------------
    // An older sender: version 1 frames read by this build

    @Test
    void heartbeatOfVersionOneIsReadWithNoEcho()
    {
        final UnsafeBuffer exact = versionOneHeartbeat(V1_HEARTBEAT_BLOCK_LENGTH);

        assertThat(decoder.decode(exact, 0, exact.capacity())).isEqualTo(FrameResult.OK);

        assertThat(handler.readFailures).isEmpty();
        assertFields(handler.last(), fields("templateId", WireFormat.HEARTBEAT, "version", 1,
            "frameLength", exact.capacity(), "incarnation", 11L, "sendTimeNs", 12L, "sequence", 13L, "nodeId", 14,
            "echoTimeNs", 0L, "echoDelayNs", 0L));
    }

    @Test
    void heartbeatOfVersionOneOneByteShortOfItsBlockIsRejected()
    {
        final UnsafeBuffer exact = versionOneHeartbeat(V1_HEARTBEAT_BLOCK_LENGTH - 1);

        assertThat(decoder.decode(exact, 0, exact.capacity())).isEqualTo(FrameResult.BLOCK_TOO_SHORT);
        assertThat(handler.calls()).isZero();
    }

    @Test
    void heartbeatOfThisVersionWithOnlyVersionOnesBlockIsRejected()
    {
        // a frame that says version 2 must carry the echo: a view would otherwise read past the block
        final UnsafeBuffer exact = versionOneHeartbeat(V1_HEARTBEAT_BLOCK_LENGTH);
        exact.putShort(6, (short)WireFormat.SCHEMA_VERSION, FrameSamples.ORDER);

        assertThat(decoder.decode(exact, 0, exact.capacity())).isEqualTo(FrameResult.BLOCK_TOO_SHORT);
        assertThat(handler.calls()).isZero();
    }

    // ---------------------------------------------------------------------------------------------------------
    // An older reader: this build's frames read by a node of version 1

    @Test
    void heartbeatOfThisBuildIsReadByVersionOne() throws Exception
    {
        final Ir v1 = parse("/sbe/troupe-wire-v1.xml");
        final int length = encoder.encodeHeartbeat(buffer, 0, 14, 11L, 12L, 13L, 15L, 16L);
        final UnsafeBuffer exact = exact(length);
        final OtfHeaderDecoder header = new OtfHeaderDecoder(v1.headerStructure());
        assertThat(header.getSchemaVersion(exact, 0)).isEqualTo(WireFormat.SCHEMA_VERSION).isGreaterThan(v1.version());
        final int blockLength = header.getBlockLength(exact, 0);
        assertThat(blockLength).isGreaterThan(V1_HEARTBEAT_BLOCK_LENGTH);
        final OtfIndependentReaderTest.FieldCollector collector = new OtfIndependentReaderTest.FieldCollector();

        final int end = OtfMessageDecoder.decode(exact, header.encodedLength(), header.getSchemaVersion(exact, 0),
            blockLength, v1.getMessage(header.getTemplateId(exact, 0)), collector);

        assertThat(collector.messageName).isEqualTo("Heartbeat");
        assertFields(collector.fields, fields("incarnation", 11L, "sendTimeNs", 12L, "sequence", 13L, "nodeId", 14L));
        assertThat(end).as("version 1 skips the echo through the block length").isEqualTo(length);
    }

    // ---------------------------------------------------------------------------------------------------------
    // A newer sender: version 5 frames read by this build

    @Test
    void envelopeOfVersionSixIsReadWithEveryVersionOneFieldAndItsPayload()
    {
        final byte[] payload = FrameRoundTripTest.randomBytes(77, 31);
        final byte[] trace =
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01".getBytes(StandardCharsets.US_ASCII);
        final EnvelopeEncoder envelope = new EnvelopeEncoder().wrapAndApplyHeader(buffer, 0, headerV6)
            .recipientRaw1(RECIPIENT.raw1()).recipientRaw2(RECIPIENT.raw2())
            .senderRaw1(SENDER.raw1()).senderRaw2(SENDER.raw2())
            .cookie(-9L).accountId(1234L).eventType(55).flags(3).accountOwnerNode(6).cost(700)
            .priority(Integer.MAX_VALUE)
            .putPayload(payload, 0, payload.length)
            .putTraceContext(trace, 0, trace.length);
        final int length = envelope.limit();

        final Map<String, Object> expected = FrameRoundTripTest.envelopeFields(length, RECIPIENT, SENDER, 55, 3, -9L, 6,
            1234L, 700, payload);
        expected.put("version", V6);
        assertFields(decodeOk(length), expected);
    }

    @Test
    void envelopeOfVersionSixWithAnEmptyPayloadAndATraceContext()
    {
        final byte[] trace = {1, 2, 3, 4, 5, 6, 7, 8};
        final int length = new EnvelopeEncoder().wrapAndApplyHeader(buffer, 0, headerV6)
            .recipientRaw1(RECIPIENT.raw1()).recipientRaw2(RECIPIENT.raw2())
            .eventType(1).priority(-1)
            .putPayload(new byte[0], 0, 0)
            .putTraceContext(trace, 0, trace.length)
            .limit();

        final Map<String, Object> decoded = decodeOk(length);

        assertThat((byte[])decoded.get("payload")).isEmpty();
        assertThat(decoded.get("recipient")).isEqualTo(RECIPIENT);
        assertThat(decoded.get("frameLength")).isEqualTo(length);
    }

    @Test
    void heartbeatOfVersionSixIsReadWithItsEcho()
    {
        final int length = new HeartbeatEncoder().wrapAndApplyHeader(buffer, 0, headerV6)
            .incarnation(11L).sendTimeNs(12L).sequence(13L).nodeId(14).echoTimeNs(Long.MAX_VALUE).echoDelayNs(15L)
            .wallClockMs(1_700_000_000_000L).limit();

        assertFields(decodeOk(length), fields("templateId", WireFormat.HEARTBEAT, "version", V6, "frameLength", length,
            "incarnation", 11L, "sendTimeNs", 12L, "sequence", 13L, "nodeId", 14, "echoTimeNs", Long.MAX_VALUE,
            "echoDelayNs", 15L));
    }

    @Test
    void creditDeltasOfVersionSixAreReadEntryByEntryThroughTheLongerEntries()
    {
        final CreditDeltasEncoder.DeltasEncoder deltas = new CreditDeltasEncoder()
            .wrapAndApplyHeader(buffer, 0, headerV6).incarnation(21L).nodeId(22).deltasCount(3);
        final List<Map<String, Object>> expected = new ArrayList<>();
        for (int i = 0; i < 3; i++)
        {
            deltas.next().accountId(100L + i).delta(-1000L * i).accountOwnerNode(7 + i).expiresAtNs(-1L);
            expected.add(FrameSnapshots.creditDelta(7 + i, 100L + i, -1000L * i));
        }
        final int length = WireFormat.HEADER_LENGTH + CreditDeltasEncoder.BLOCK_LENGTH +
            WireFormat.GROUP_HEADER_LENGTH + 3 * CreditDeltasEncoder.DeltasEncoder.sbeBlockLength();

        assertFields(decodeOk(length), fields("templateId", WireFormat.CREDIT_DELTAS, "version", V6, "frameLength",
            length, "incarnation", 21L, "nodeId", 22, "deltas", expected));
    }

    @Test
    void unchangedMessagesWrittenByVersionSixAreRead()
    {
        int length = new AckEncoder().wrapAndApplyHeader(buffer, 0, headerV6)
            .incarnation(1L).ackedPosition(2L).nodeId(3).streamId(4).limit();
        assertFields(decodeOk(length), fields("templateId", WireFormat.ACK, "version", V6, "frameLength", length,
            "incarnation", 1L, "ackedPosition", 2L, "nodeId", 3, "streamId", 4));

        final byte[] challenge = {9, 9, 9};
        length = new HandshakeEncoder().wrapAndApplyHeader(buffer, 0, headerV6)
            .incarnation(5L).peerIncarnation(6L).nodeId(7).peerNodeId(8).minProtocolVersion(1).maxProtocolVersion(2)
            .phase(io.troupe.serialization.compat.v6.HandshakePhase.CONFIRM).frameProtection((short)2) // name clash
            .clusterId("prod").putChallenge(challenge, 0, challenge.length).putProof(new byte[0], 0, 0).detail("")
            .putTypes(new byte[0], 0, 0).putEcho(challenge, 0, challenge.length).limit();
        final Map<String, Object> expected = FrameRoundTripTest.handshakeFields(length, new Handshake(
            HandshakePhase.CONFIRM, "prod", 7, 5L, 8, 6L, 1, 2, challenge, new byte[0], "", new byte[0],
            FrameProtection.ENCRYPTED, challenge));
        expected.put("version", V6);
        assertFields(decodeOk(length), expected);

        final ServiceId service = ServiceId.of(2, "svc");
        final DirectoryUpdateEncoder.EntriesEncoder entries = new DirectoryUpdateEncoder()
            .wrapAndApplyHeader(buffer, 0, headerV6)
            .incarnation(10L).directoryVersion(11L).nodeId(12).snapshot(BooleanType.TRUE).entriesCount(1);
        entries.next().serviceRaw1(service.raw1()).serviceRaw2(service.raw2())
            .actorRaw1(SENDER.raw1()).actorRaw2(SENDER.raw2())
            .op(io.troupe.serialization.compat.v6.DirectoryOp.UNREGISTER); // name clash
        length = WireFormat.HEADER_LENGTH + DirectoryUpdateEncoder.BLOCK_LENGTH + WireFormat.GROUP_HEADER_LENGTH +
            DirectoryUpdateEncoder.EntriesEncoder.sbeBlockLength();
        assertFields(decodeOk(length), fields("templateId", WireFormat.DIRECTORY_UPDATE, "version", V6,
            "frameLength", length, "incarnation", 10L, "directoryVersion", 11L, "nodeId", 12, "snapshot", true,
            "entries", List.of(FrameSnapshots.directoryEntry(service, SENDER, DirectoryOp.UNREGISTER))));
    }

    @Test
    void enumValuesAppendedInVersionSixReadAsUnknown()
    {
        int length = new GoodbyeEncoder().wrapAndApplyHeader(buffer, 0, headerV6)
            .incarnation(1L).nodeId(2).reason(io.troupe.serialization.compat.v6.GoodbyeReason.UPGRADE) // name clash
            .detail("v3 soon").limit();
        assertFields(decodeOk(length), fields("templateId", WireFormat.GOODBYE, "version", V6, "frameLength", length,
            "incarnation", 1L, "nodeId", 2, "reason", GoodbyeReason.UNKNOWN, "detail", "v3 soon"));

        length = new UndeliveredNoticeEncoder().wrapAndApplyHeader(buffer, 0, headerV6)
            .senderRaw1(SENDER.raw1()).senderRaw2(SENDER.raw2()).recipientRaw1(RECIPIENT.raw1())
            .recipientRaw2(RECIPIENT.raw2()).cookie(3L).eventType(4).reason(UndeliveredReasonCode.EXPIRED)
            .unsure(BooleanType.FALSE).limit();
        final Map<String, Object> notice = decodeOk(length);
        // this build's UndeliveredReason has no UNKNOWN: the view says null and keeps the code
        assertThat(notice.get("reason")).isNull();
        assertThat(notice.get("reasonCode")).isEqualTo((int)UndeliveredReasonCode.EXPIRED.value());
        assertThat(notice.get("recipient")).isEqualTo(RECIPIENT);
        assertThat(notice.get("unsure")).isEqualTo(false);
    }

    @Test
    void templateThisBuildDoesNotKnowIsRejectedAndCounted()
    {
        final int length = new ProbeEncoder().wrapAndApplyHeader(buffer, 0, headerV6).nonce(42L).nodeId(1).note("hi")
            .limit();
        final UnsafeBuffer exact = new UnsafeBuffer(buffer.byteArray(), 0, length);

        assertThat(decoder.decode(exact, 0, length)).isEqualTo(FrameResult.UNKNOWN_TEMPLATE);
        assertThat(decoder.count(FrameResult.UNKNOWN_TEMPLATE)).isEqualTo(1);
        assertThat(decoder.rejectedCount()).isEqualTo(1);
        assertThat(handler.calls()).isZero();

        // and the stream goes on
        final int heartbeat = encoder.encodeHeartbeat(buffer, 0, 1, 2L, 3L, 4L, 5L, 6L);
        assertThat(decoder.decode(buffer, 0, heartbeat)).isEqualTo(FrameResult.OK);
    }

    // ---------------------------------------------------------------------------------------------------------
    // An older sender: this build's frames read by version 6's decoders

    @Test
    void envelopeOfThisBuildIsReadByVersionSixWithTheNewFieldsNull()
    {
        final byte[] payload = FrameRoundTripTest.randomBytes(19, 41);
        final int payloadAt = encoder.beginEnvelope(buffer, 0, RECIPIENT, SENDER, 55, 3, -9L, 6, 1234L, 700, null,
            payload.length);
        buffer.putBytes(payloadAt, payload);
        final UnsafeBuffer exact = exact(payloadAt + payload.length);
        final MessageHeaderDecoder header = header(exact, WireFormat.ENVELOPE);

        final EnvelopeDecoder envelope = new EnvelopeDecoder()
            .wrap(exact, MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(), header.version());

        assertThat(envelope.recipientRaw1()).isEqualTo(RECIPIENT.raw1());
        assertThat(envelope.recipientRaw2()).isEqualTo(RECIPIENT.raw2());
        assertThat(envelope.senderRaw1()).isEqualTo(SENDER.raw1());
        assertThat(envelope.senderRaw2()).isEqualTo(SENDER.raw2());
        assertThat(envelope.cookie()).isEqualTo(-9L);
        assertThat(envelope.accountId()).isEqualTo(1234L);
        assertThat(envelope.eventType()).isEqualTo(55);
        assertThat(envelope.flags()).isEqualTo(3);
        assertThat(envelope.accountOwnerNode()).isEqualTo(6);
        assertThat(envelope.cost()).isEqualTo(700);
        assertThat(envelope.priority()).isEqualTo(EnvelopeDecoder.priorityNullValue());
        final byte[] read = new byte[envelope.payloadLength()];
        envelope.getPayload(read, 0, read.length);
        assertThat(read).isEqualTo(payload);
        assertThat(envelope.traceContextLength()).isZero();
        assertThat(envelope.getTraceContext(new byte[8], 0, 8)).isZero();
        assertThat(envelope.limit()).isEqualTo(exact.capacity());
    }

    @Test
    void heartbeatOfThisBuildIsReadByVersionSixWithTheNewFieldNull()
    {
        final UnsafeBuffer exact = exact(encoder.encodeHeartbeat(buffer, 0, 14, 11L, 12L, 13L, 15L, 16L));
        final MessageHeaderDecoder header = header(exact, WireFormat.HEARTBEAT);

        final HeartbeatDecoder heartbeat = new HeartbeatDecoder()
            .wrap(exact, MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(), header.version());

        assertThat(heartbeat.incarnation()).isEqualTo(11L);
        assertThat(heartbeat.sendTimeNs()).isEqualTo(12L);
        assertThat(heartbeat.sequence()).isEqualTo(13L);
        assertThat(heartbeat.nodeId()).isEqualTo(14);
        assertThat(heartbeat.echoTimeNs()).isEqualTo(15L);
        assertThat(heartbeat.echoDelayNs()).isEqualTo(16L);
        assertThat(heartbeat.wallClockMs()).isEqualTo(HeartbeatDecoder.wallClockMsNullValue());
    }

    @Test
    void creditDeltasOfThisBuildAreReadByVersionSixWithTheNewEntryFieldNull()
    {
        final int[] owners = {1, 2, 3};
        final long[] accounts = {10L, 20L, 30L};
        final long[] deltas = {-1L, 0L, Long.MAX_VALUE};
        final UnsafeBuffer exact = exact(encoder.encodeCreditDeltas(buffer, 0, 8, 9L, owners, accounts, deltas, 3));
        final MessageHeaderDecoder header = header(exact, WireFormat.CREDIT_DELTAS);

        final CreditDeltasDecoder batch = new CreditDeltasDecoder()
            .wrap(exact, MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(), header.version());

        assertThat(batch.incarnation()).isEqualTo(9L);
        assertThat(batch.nodeId()).isEqualTo(8);
        final CreditDeltasDecoder.DeltasDecoder entries = batch.deltas();
        assertThat(entries.count()).isEqualTo(3);
        int i = 0;
        while (entries.hasNext())
        {
            final CreditDeltasDecoder.DeltasDecoder entry = entries.next();
            assertThat(entry.accountId()).isEqualTo(accounts[i]);
            assertThat(entry.delta()).isEqualTo(deltas[i]);
            assertThat(entry.accountOwnerNode()).isEqualTo(owners[i]);
            assertThat(entry.expiresAtNs()).isEqualTo(CreditDeltasDecoder.DeltasDecoder.expiresAtNsNullValue());
            i++;
        }
        assertThat(i).isEqualTo(3);
        assertThat(batch.limit()).isEqualTo(exact.capacity());
    }

    @Test
    void otherFramesOfThisBuildAreReadByVersionSix()
    {
        UnsafeBuffer exact = exact(encoder.encodeHandshake(buffer, 0, new Handshake(HandshakePhase.HELLO, "prod", 1, 2L,
            3, 0L, 1, 1, new byte[]{7}, null, null)));
        MessageHeaderDecoder header = header(exact, WireFormat.HANDSHAKE);
        final HandshakeDecoder handshake = new HandshakeDecoder()
            .wrap(exact, MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(), header.version());
        assertThat(handshake.incarnation()).isEqualTo(2L);
        assertThat(handshake.phase()).isEqualTo(io.troupe.serialization.compat.v6.HandshakePhase.HELLO); // name clash
        assertThat(handshake.clusterId()).isEqualTo("prod");
        assertThat(handshake.challengeLength()).isEqualTo(1);
        handshake.skipChallenge();
        assertThat(handshake.proofLength()).isZero();
        handshake.skipProof();
        assertThat(handshake.detail()).isEmpty();
        assertThat(handshake.typesLength()).isZero();
        handshake.skipTypes();
        assertThat(handshake.frameProtection()).isEqualTo((short)FrameProtection.AUTHENTICATED.code());
        assertThat(handshake.echoLength()).isZero();
        handshake.skipEcho();
        assertThat(handshake.limit()).isEqualTo(exact.capacity());

        exact =
            exact(encoder.encodeUndeliveredNotice(buffer, 0, SENDER, RECIPIENT, 4, 3L, UndeliveredReason.SHED, true));
        header = header(exact, WireFormat.UNDELIVERED_NOTICE);
        final UndeliveredNoticeDecoder notice = new UndeliveredNoticeDecoder()
            .wrap(exact, MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(), header.version());
        assertThat(notice.reason()).isEqualTo(UndeliveredReasonCode.SHED);
        assertThat(notice.unsure()).isEqualTo(BooleanType.TRUE);
        assertThat(notice.recipientRaw2()).isEqualTo(RECIPIENT.raw2());

        exact = exact(encoder.encodeDirectoryUpdate(buffer, 0, 1, 2L, 3L, true, List.of(
            new DirectoryEntry(ServiceId.of(1, "a"), RECIPIENT, DirectoryOp.REGISTER))));
        header = header(exact, WireFormat.DIRECTORY_UPDATE);
        final DirectoryUpdateDecoder update = new DirectoryUpdateDecoder()
            .wrap(exact, MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(), header.version());
        assertThat(update.directoryVersion()).isEqualTo(3L);
        final DirectoryUpdateDecoder.EntriesDecoder entry = update.entries().next();
        assertThat(entry.actorRaw1()).isEqualTo(RECIPIENT.raw1());
        assertThat(entry.op()).isEqualTo(io.troupe.serialization.compat.v6.DirectoryOp.REGISTER); // name clash

        exact = exact(encoder.encodeGoodbye(buffer, 0, 6, 7L, GoodbyeReason.PROTOCOL_ERROR, "bad frames"));
        header = header(exact, WireFormat.GOODBYE);
        final GoodbyeDecoder goodbye = new GoodbyeDecoder()
            .wrap(exact, MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(), header.version());
        assertThat(goodbye.reason())
            .isEqualTo(io.troupe.serialization.compat.v6.GoodbyeReason.PROTOCOL_ERROR); // name clash
        assertThat(goodbye.detail()).isEqualTo("bad frames");
    }

    // ---------------------------------------------------------------------------------------------------------

    /** A heartbeat as a node of version 1 writes it, byte by byte, in a buffer of exactly its length. */
    private static UnsafeBuffer versionOneHeartbeat(final int blockLength)
    {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[WireFormat.HEADER_LENGTH + blockLength]);
        frame.putShort(0, (short)blockLength, FrameSamples.ORDER);
        frame.putShort(2, (short)WireFormat.HEARTBEAT, FrameSamples.ORDER);
        frame.putShort(4, (short)WireFormat.SCHEMA_ID, FrameSamples.ORDER);
        frame.putShort(6, (short)1, FrameSamples.ORDER);
        final long[] fields = {11L, 12L, 13L}; // incarnation, sendTimeNs, sequence; then nodeId (int32)
        for (int i = 0; i < fields.length && 8 * i + 8 <= blockLength; i++)
        {
            frame.putLong(WireFormat.HEADER_LENGTH + 8 * i, fields[i], FrameSamples.ORDER);
        }
        if (blockLength >= V1_HEARTBEAT_BLOCK_LENGTH)
        {
            frame.putInt(WireFormat.HEADER_LENGTH + 24, 14, FrameSamples.ORDER);
        }
        return frame;
    }

    private Map<String, Object> decodeOk(final int length)
    {
        final UnsafeBuffer exact = new UnsafeBuffer(buffer.byteArray(), 0, length);
        assertThat(new MessageHeaderDecoder().wrap(exact, 0).version()).isEqualTo(V6);

        assertThat(decoder.decode(exact, 0, length)).isEqualTo(FrameResult.OK);

        assertThat(handler.readFailures).isEmpty();
        assertThat(decoder.rejectedCount()).isZero();
        return handler.last();
    }

    /** The frame at the start of the scratch buffer, in a buffer of exactly its length. */
    private UnsafeBuffer exact(final int length)
    {
        return new UnsafeBuffer(buffer.byteArray(), 0, length);
    }

    private static MessageHeaderDecoder header(final UnsafeBuffer frame, final int templateId)
    {
        final MessageHeaderDecoder header = new MessageHeaderDecoder().wrap(frame, 0);
        assertThat(header.schemaId()).isEqualTo(MessageHeaderDecoder.SCHEMA_ID);
        assertThat(header.version()).isEqualTo(WireFormat.SCHEMA_VERSION)
            .isLessThan(MessageHeaderDecoder.SCHEMA_VERSION);
        assertThat(header.templateId()).isEqualTo(templateId);
        return header;
    }

    private static Ir parse(final String resource) throws Exception
    {
        try (InputStream schema = SchemaCompatibilityTest.class.getResourceAsStream(resource))
        {
            assertThat(schema).as(resource).isNotNull();
            return new IrGenerator().generate(
                XmlSchemaParser.parse(schema, ParserOptions.builder().stopOnError(true).warningsFatal(true).build()));
        }
    }

    /**
     * What a decoder of the given version sees of a message: its tokens up to that version, each as signal,
     * name, id, offset, length and primitive type. Left out: the block and entry lengths, which appended
     * fields grow, and the offsets of var data fields, which follow the block wherever it ends.
     */
    private static List<String> shape(final List<Token> tokens, final int version)
    {
        final List<String> shape = new ArrayList<>();
        boolean inVarData = false;
        for (final Token token : tokens)
        {
            final Signal signal = token.signal();
            inVarData |= signal == Signal.BEGIN_VAR_DATA;
            if (token.version() <= version)
            {
                final boolean grows = signal == Signal.BEGIN_MESSAGE || signal == Signal.END_MESSAGE ||
                    signal == Signal.BEGIN_GROUP || signal == Signal.END_GROUP;
                final boolean follows = inVarData &&
                    (signal == Signal.BEGIN_VAR_DATA || signal == Signal.END_VAR_DATA ||
                    signal == Signal.BEGIN_COMPOSITE || signal == Signal.END_COMPOSITE);
                shape.add(signal + " " + token.name() + " #" + token.id() + (follows ? "" : " @" + token.offset()) +
                    (grows ? "" : " " + token.encodedLength()) + " " + token.encoding().primitiveType());
            }
            inVarData &= signal != Signal.END_VAR_DATA;
        }
        return shape;
    }
}
