package io.troupe.interconnect.seal;

import com.sun.management.ThreadMXBean;
import io.troupe.serialization.wire.FrameProtection;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class FrameSealTest
{
    private static final byte[] SECRET = "sixteen-byte-secret!".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CHALLENGE_A = bytes(32, 1);
    private static final byte[] CHALLENGE_B = bytes(32, 2);

    private final UnsafeBuffer out = new UnsafeBuffer(new byte[4096]);
    private final UnsafeBuffer in = new UnsafeBuffer(new byte[4096]);

    @Test
    void hmacMatchesRfc4231AndTheJdkMacForEveryLength() throws Exception
    {
        // RFC 4231 test case 2
        final Hmac256 rfc = new Hmac256("Jefe".getBytes(StandardCharsets.US_ASCII));
        assertThat(HexFormat.of().formatHex(
            rfc.update("what do ya want for nothing?".getBytes(StandardCharsets.US_ASCII)).finish()))
            .isEqualTo("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
        // RFC 4231 test case 6: a key longer than a block
        final byte[] longKey = new byte[131];
        Arrays.fill(longKey, (byte)0xaa);
        assertThat(HexFormat.of().formatHex(new Hmac256(longKey)
            .update("Test Using Larger Than Block-Size Key - Hash Key First".getBytes(StandardCharsets.US_ASCII))
            .finish()))
            .isEqualTo("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");

        final SplittableRandom random = new SplittableRandom(7);
        for (int length = 0; length < 300; length++)
        {
            final byte[] key = bytes(1 + random.nextInt(100), length);
            final byte[] message = bytes(length, length + 1000);
            final Mac jdk = Mac.getInstance("HmacSHA256");
            jdk.init(new SecretKeySpec(key, "HmacSHA256"));
            final Hmac256 ours = new Hmac256(key);
            assertThat(ours.update(message).finish()).isEqualTo(jdk.doFinal(message));
            assertThat(ours.update(message).finish()).as("reused").isEqualTo(jdk.doFinal(message));
        }
    }

    @Test
    void keysDifferByDirectionSessionAndProtectionAndBothSidesDeriveTheSame()
    {
        final SessionKeys keys = derive(FrameProtection.AUTHENTICATED, CHALLENGE_A, CHALLENGE_B, 10L);
        final SessionKeys again = derive(FrameProtection.AUTHENTICATED, CHALLENGE_A, CHALLENGE_B, 10L);
        assertThat(keys.initiatorToAcceptor).isEqualTo(again.initiatorToAcceptor).hasSize(32)
            .isNotEqualTo(keys.acceptorToInitiator);
        assertThat(keys.sealKey(true)).isEqualTo(keys.openKey(false));
        assertThat(keys.sealKeyId(false)).isEqualTo(keys.openKeyId(true));
        assertThat(derive(FrameProtection.AUTHENTICATED, CHALLENGE_B, CHALLENGE_A, 10L).initiatorToAcceptor)
            .isNotEqualTo(keys.initiatorToAcceptor);
        assertThat(derive(FrameProtection.AUTHENTICATED, CHALLENGE_A, CHALLENGE_B, 11L).initiatorToAcceptor)
            .isNotEqualTo(keys.initiatorToAcceptor);
        assertThat(derive(FrameProtection.ENCRYPTED, CHALLENGE_A, CHALLENGE_B, 10L).initiatorToAcceptor)
            .isNotEqualTo(keys.initiatorToAcceptor);
    }

    @ParameterizedTest
    @EnumSource(value = FrameProtection.class, names = {"AUTHENTICATED", "ENCRYPTED"})
    void aSealedMessageOpensOnceInOrderAndNotAfterAnyChange(final FrameProtection protection)
    {
        final SessionKeys keys = derive(protection, CHALLENGE_A, CHALLENGE_B, 10L);
        final FrameSeal.Sealer sealer = new FrameSeal.Sealer(protection, keys.sealKey(true), keys.sealKeyId(true));
        final FrameSeal.Opener opener = new FrameSeal.Opener(protection, keys.openKey(false), keys.openKeyId(false));
        final UnsafeBuffer body = new UnsafeBuffer(bytes(100, 5));

        final int first = sealer.seal(FrameSeal.DATA, 11, body, 0, 100, out);
        assertThat(first).isEqualTo(100 + FrameSeal.OVERHEAD);
        assertThat(FrameSeal.keyId(out, 0, first)).isEqualTo(keys.initiatorToAcceptorId);
        if (protection == FrameProtection.ENCRYPTED)
        {
            assertThat(out.getByte(FrameSeal.HEADER + 3)).as("encrypted").isNotEqualTo(body.getByte(3));
        }
        final byte[] sealed = new byte[first];
        out.getBytes(0, sealed);

        // every single flipped bit fails the tag
        for (int bit = 0; bit < sealed.length * 8; bit += 7)
        {
            final byte[] flipped = sealed.clone();
            flipped[bit / 8] ^= (byte)(1 << (bit % 8));
            if (bit / 8 < 4)
            {
                continue; // the marker and the key id only route the message
            }
            assertThat(opener.open(FrameSeal.DATA, 11, new UnsafeBuffer(flipped), 0, first, in)).as("bit " + bit)
                .isEqualTo(FrameSeal.BAD_TAG);
        }
        // the stream id is bound: the same message on another stream fails
        assertThat(opener.open(FrameSeal.CONTROL, 10, new UnsafeBuffer(sealed), 0, first, in))
            .isEqualTo(FrameSeal.BAD_TAG);
        // the other direction's key cannot open it (a reflected frame)
        final FrameSeal.Opener reflected = new FrameSeal.Opener(protection, keys.openKey(true), keys.openKeyId(true));
        assertThat(reflected.open(FrameSeal.DATA, 11, new UnsafeBuffer(sealed), 0, first, in))
            .isEqualTo(FrameSeal.BAD_TAG);

        assertThat(opener.open(FrameSeal.DATA, 11, new UnsafeBuffer(sealed), 0, first, in)).isEqualTo(100);
        assertThat(bytesOf(in, FrameSeal.HEADER, 100)).isEqualTo(bytes(100, 5));
        assertThat(opener.open(FrameSeal.DATA, 11, new UnsafeBuffer(sealed), 0, first, in)).as("replay")
            .isEqualTo(FrameSeal.REPLAYED);
        sealer.sent(FrameSeal.DATA);

        // pushed back and sealed again: the same sequence, a new seal count; only one of them may open
        final int second = sealer.seal(FrameSeal.DATA, 11, body, 0, 50, out);
        final byte[] pushedBack = new byte[second];
        out.getBytes(0, pushedBack);
        final int retried = sealer.seal(FrameSeal.DATA, 11, body, 0, 60, out);
        sealer.sent(FrameSeal.DATA);
        assertThat(opener.open(FrameSeal.DATA, 11, out, 0, retried, in)).isEqualTo(60);
        assertThat(opener.open(FrameSeal.DATA, 11, new UnsafeBuffer(pushedBack), 0, second, in))
            .isEqualTo(FrameSeal.REPLAYED);

        // a message that skips one: the one in between never came
        sealer.seal(FrameSeal.DATA, 11, body, 0, 10, out);
        sealer.sent(FrameSeal.DATA);
        final int fourth = sealer.seal(FrameSeal.DATA, 11, body, 0, 10, out);
        assertThat(opener.open(FrameSeal.DATA, 11, out, 0, fourth, in)).isEqualTo(FrameSeal.GAP);

        // streams count apart
        final int control = sealer.seal(FrameSeal.CONTROL, 10, body, 0, 0, out);
        assertThat(opener.open(FrameSeal.CONTROL, 10, out, 0, control, in)).isZero();
    }

    @Test
    void aKeyOfAnotherSessionCannotOpenAndUnsealedMessagesHaveNoKeyId()
    {
        final SessionKeys old = derive(FrameProtection.AUTHENTICATED, CHALLENGE_A, CHALLENGE_B, 10L);
        final SessionKeys current = derive(FrameProtection.AUTHENTICATED, CHALLENGE_A, bytes(32, 3), 10L);
        final FrameSeal.Sealer oldSealer = new FrameSeal.Sealer(FrameProtection.AUTHENTICATED, old.sealKey(true),
            old.sealKeyId(true));
        final FrameSeal.Opener opener = new FrameSeal.Opener(FrameProtection.AUTHENTICATED, current.openKey(false),
            current.openKeyId(false));
        final int length = oldSealer.seal(FrameSeal.CONTROL, 10, new UnsafeBuffer(new byte[8]), 0, 8, out);
        assertThat(opener.open(FrameSeal.CONTROL, 10, out, 0, length, in)).isEqualTo(FrameSeal.BAD_TAG);

        assertThat(FrameSeal.keyId(new UnsafeBuffer(new byte[FrameSeal.OVERHEAD - 1]), 0, FrameSeal.OVERHEAD - 1))
            .isEqualTo(-1);
        assertThat(FrameSeal.keyId(new UnsafeBuffer(new byte[64]), 0, 64)).isEqualTo(-1);
    }

    @Test
    void sealingAndOpeningWithAMacAllocateNothing()
    {
        final SessionKeys keys = derive(FrameProtection.AUTHENTICATED, CHALLENGE_A, CHALLENGE_B, 10L);
        final FrameSeal.Sealer sealer = new FrameSeal.Sealer(FrameProtection.AUTHENTICATED, keys.sealKey(true),
            keys.sealKeyId(true));
        final FrameSeal.Opener opener = new FrameSeal.Opener(FrameProtection.AUTHENTICATED, keys.openKey(false),
            keys.openKeyId(false));
        final UnsafeBuffer body = new UnsafeBuffer(bytes(1400, 9));
        final Runnable round = () ->
        {
            final int length = sealer.seal(FrameSeal.DATA, 11, body, 0, 1400, out);
            sealer.sent(FrameSeal.DATA);
            if (opener.open(FrameSeal.DATA, 11, out, 0, length, in) != 1400)
            {
                throw new AssertionError("did not open");
            }
        };
        for (int i = 0; i < 20_000; i++)
        {
            round.run(); // warm up, so the JIT has done its work
        }
        final ThreadMXBean threads = (ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 10_000; i++)
        {
            round.run();
        }
        assertThat(threads.getCurrentThreadAllocatedBytes() - before).as("bytes for 10,000 rounds").isLessThan(1024);
    }

    private static SessionKeys derive(final FrameProtection protection, final byte[] a, final byte[] b,
        final long incarnation)
    {
        return SessionKeys.derive(SECRET, "test", protection, 1, incarnation, 2, 20L, a, b);
    }

    private static byte[] bytesOf(final UnsafeBuffer buffer, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return bytes;
    }

    static byte[] bytes(final int length, final int seed)
    {
        final byte[] bytes = new byte[length];
        new SplittableRandom(seed).nextBytes(bytes);
        return bytes;
    }
}
