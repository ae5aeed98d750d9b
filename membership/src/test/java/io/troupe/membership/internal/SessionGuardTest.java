package io.troupe.membership.internal;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class SessionGuardTest
{
    private static final byte[] SECRET = "session-guard-test-secret-0123456".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CHALLENGE = new byte[32];
    private static final byte[] BODY = "a renewal of node 5".getBytes(StandardCharsets.US_ASCII);

    static
    {
        CHALLENGE[3] = 7;
    }

    private static SessionGuard node()
    {
        return SessionGuard.of(false, SECRET, "test", 5, 77, CHALLENGE);
    }

    private static SessionGuard service()
    {
        return SessionGuard.of(true, SECRET, "test", 5, 77, CHALLENGE);
    }

    private static UnsafeBuffer sealed(final SessionGuard guard)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[SessionGuard.MAX_MESSAGE]);
        buffer.putBytes(0, BODY);
        final int length = guard.seal(buffer, BODY.length);
        assertThat(length).isEqualTo(BODY.length + SessionGuard.TRAILER);
        return buffer;
    }

    private static int open(final SessionGuard guard, final UnsafeBuffer message)
    {
        return guard.open(message, 0, BODY.length + SessionGuard.TRAILER);
    }

    @Test
    void whatOneSideSealsTheOtherOpensOnceWithTheBodyUntouched()
    {
        final SessionGuard node = node();
        final SessionGuard service = service();
        final UnsafeBuffer first = sealed(node);
        final UnsafeBuffer second = sealed(node);

        assertThat(open(service, first)).isEqualTo(BODY.length);
        assertThat(first.getStringWithoutLengthAscii(0, BODY.length)).isEqualTo(new String(BODY,
            StandardCharsets.US_ASCII));
        assertThat(open(service, first)).isEqualTo(SessionGuard.REPLAYED);
        assertThat(open(service, second)).isEqualTo(BODY.length);
        assertThat(service.taken()).isEqualTo(2);
        assertThat(node.sent()).isEqualTo(2);

        final UnsafeBuffer notice = sealed(service); // the other direction has keys of its own
        assertThat(open(node, notice)).isEqualTo(BODY.length);
    }

    @Test
    void aChangedByteAnotherSessionsKeysOrAReflectionFail()
    {
        final SessionGuard service = service();
        final UnsafeBuffer inBody = sealed(node());
        inBody.putByte(2, (byte)(inBody.getByte(2) ^ 1));
        assertThat(open(service, inBody)).isEqualTo(SessionGuard.BAD_TAG);
        final UnsafeBuffer inSequence = sealed(node());
        inSequence.putByte(BODY.length, (byte)2); // the sequence is under the tag too
        assertThat(open(service, inSequence)).isEqualTo(SessionGuard.BAD_TAG);

        final byte[] otherChallenge = CHALLENGE.clone();
        otherChallenge[0] = 1;
        final UnsafeBuffer ofAnotherSession = sealed(SessionGuard.of(false, SECRET, "test", 5, 77, otherChallenge));
        assertThat(open(service, ofAnotherSession)).isEqualTo(SessionGuard.BAD_TAG);
        final UnsafeBuffer ofAnotherIncarnation = sealed(SessionGuard.of(false, SECRET, "test", 5, 78, CHALLENGE));
        assertThat(open(service, ofAnotherIncarnation)).isEqualTo(SessionGuard.BAD_TAG);
        final byte[] otherSecret = SECRET.clone();
        otherSecret[0] ^= 1;
        assertThat(open(service, sealed(SessionGuard.of(false, otherSecret, "test", 5, 77, CHALLENGE))))
            .isEqualTo(SessionGuard.BAD_TAG);

        final SessionGuard node = node();
        assertThat(open(node, sealed(node()))).isEqualTo(SessionGuard.BAD_TAG); // a request sent back to the node
        assertThat(service.taken()).isZero();
    }

    @Test
    void aGapIsTakenButNothingOlderAfterItNorAMessageOfAWrongLength()
    {
        final SessionGuard node = node();
        final SessionGuard service = service();
        final UnsafeBuffer first = sealed(node);
        sealed(node); // never arrives
        final UnsafeBuffer third = sealed(node);
        assertThat(open(service, third)).isEqualTo(BODY.length);
        assertThat(open(service, first)).isEqualTo(SessionGuard.REPLAYED);

        assertThat(service.open(third, 0, SessionGuard.TRAILER - 1)).isEqualTo(SessionGuard.BAD_LENGTH);
        assertThat(service.open(new UnsafeBuffer(new byte[SessionGuard.MAX_MESSAGE + 1]), 0,
            SessionGuard.MAX_MESSAGE + 1)).isEqualTo(SessionGuard.BAD_LENGTH);
    }

    @Test
    void restoredSequencesGoOnWhereTheSnapshotLeftThem()
    {
        final SessionGuard node = node();
        final SessionGuard service = service();
        final UnsafeBuffer first = sealed(node);
        assertThat(open(service, first)).isEqualTo(BODY.length);

        final SessionGuard restored = service();
        restored.restore(service.sent(), service.taken());
        assertThat(open(restored, first)).isEqualTo(SessionGuard.REPLAYED);
        assertThat(open(restored, sealed(node))).isEqualTo(BODY.length);
        final SessionGuard nodeAgain = node();
        nodeAgain.restore(3, 0);
        final UnsafeBuffer fourth = sealed(nodeAgain);
        assertThat(fourth.getLong(BODY.length, ByteOrder.LITTLE_ENDIAN)).isEqualTo(4);
    }
}
