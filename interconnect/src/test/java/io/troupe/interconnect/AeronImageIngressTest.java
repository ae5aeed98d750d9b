package io.troupe.interconnect;

import io.troupe.testing.Await;
import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.EventTypes;
import io.troupe.actor.PoolConfig;
import io.troupe.actor.CreditAccount;
import io.troupe.actor.PollingIngress;
import io.troupe.actor.MailboxType;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ingress pattern on a real Aeron image: a publisher offering as fast as it can is back-pressured while
 * the ingress's account is in debt, the debt never passes the threshold by more than one batch, and every
 * message arrives, in order.
 */
@Timeout(60)
class AeronImageIngressTest
{
    private static final int MESSAGES = 20_000;
    private static final long THRESHOLD = 100;
    private static final int BATCH = 10;
    private static final int TYPE = EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 77);

    private MediaDriver driver;
    private Aeron aeron;
    private ActorSystem system;

    @AfterEach
    void tearDown()
    {
        if (system != null)
        {
            system.close();
        }
        CloseHelper.quietCloseAll(aeron, driver);
    }

    @Test
    void aSlowConsumerBackPressuresThePublisherThroughTheIngressAccountAndNothingIsLost() throws Exception
    {
        final String dir = System.getProperty("java.io.tmpdir") + "/troupe-ingress-" + System.nanoTime();
        driver = MediaDriver.launch(new MediaDriver.Context().aeronDirectoryName(dir)
            .threadingMode(ThreadingMode.SHARED).dirDeleteOnStart(true).dirDeleteOnShutdown(true));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(dir));
        final String channel = "aeron:ipc?term-length=64k";
        final Subscription subscription = aeron.addSubscription(channel, 1001);
        final ExclusivePublication publication = aeron.addExclusivePublication(channel, 1001);
        Await.until(() -> subscription.imageCount() == 1, "the image appears");
        final Image image = subscription.imageAtIndex(0);

        system = ActorSystem.start(new ActorSystemConfig().nodeId(31).threadNamePrefix("ingress-")
            .pool(PoolConfig.named("default").threads(1))
            .pool(PoolConfig.named("slow").threads(1)));
        final CreditAccount account = system.flow().openAccount(THRESHOLD);
        final AtomicLong received = new AtomicLong();
        final AtomicLong outOfOrder = new AtomicLong();
        final AtomicLong maxDebt = new AtomicLong();
        // the consumer: 20 µs per message, far slower than the publisher
        final ActorId consumer = system.register((ctx, envelope) ->
        {
            final long seq = ByteBuffer.wrap((byte[])envelope.event()).getLong();
            if (seq != received.get())
            {
                outOfOrder.incrementAndGet();
            }
            received.incrementAndGet();
            maxDebt.accumulateAndGet(account.debt(), Math::max);
            final long until = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(20);
            while (System.nanoTime() < until)
            {
                Thread.onSpinWait();
            }
        }, system.poolId("slow"), MailboxType.SIMPLE);
        final AeronImageIngress ingress = new AeronImageIngress(account, image, consumer, TYPE, BATCH,
            Duration.ofMillis(1));
        system.send(system.register(ingress), PollingIngress.POLL);

        // the publisher offers as fast as the window lets it
        final UnsafeBuffer message = new UnsafeBuffer(new byte[64]);
        long backPressured = 0;
        for (long seq = 0; seq < MESSAGES; )
        {
            message.putLong(0, seq, ByteOrder.BIG_ENDIAN);
            final long result = publication.offer(message, 0, message.capacity());
            if (result > 0)
            {
                seq++;
            }
            else if (result == Publication.BACK_PRESSURED)
            {
                backPressured++;
                Thread.yield();
            }
            else if (result != Publication.ADMIN_ACTION)
            {
                throw new IllegalStateException("offer failed: " + result);
            }
        }
        Await.until(() -> received.get() == MESSAGES, "every message arrives");
        assertThat(outOfOrder.get()).isZero();
        assertThat(backPressured).as("the publisher was held back").isPositive();
        assertThat(maxDebt.get()).as("one batch past the threshold at most").isLessThanOrEqualTo(THRESHOLD + BATCH);
        assertThat(account.waits()).as("the ingress stopped reading").isPositive();
        Await.until(() -> account.debt() == 0, "everything is repaid");
    }
}
