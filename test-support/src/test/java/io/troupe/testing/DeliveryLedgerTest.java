package io.troupe.testing;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DeliveryLedgerTest
{
    private final DeliveryLedger ledger = new DeliveryLedger();

    @Test
    void eachSentEventEndingOnceIsExactlyOnceAndAnUnsureNoticeMayComeWithADelivery()
    {
        for (long cookie = 1; cookie <= 4; cookie++)
        {
            ledger.sent(cookie);
        }
        assertThat(ledger.allAccountedFor()).isFalse();
        ledger.delivered(1);
        ledger.delivered(2);
        ledger.undelivered(3, false, "DISCONNECTED");
        ledger.delivered(4);
        ledger.undelivered(4, true, "DISCONNECTED");

        assertThat(ledger.allAccountedFor()).isTrue();
        assertThat(ledger.violations()).isEmpty();
        ledger.assertExactlyOnce();
        assertThat(ledger.sentCount()).isEqualTo(4);
        assertThat(ledger.deliveredCount()).isEqualTo(3);
        assertThat(ledger.undeliveredCount()).isEqualTo(2);
        assertThat(ledger.deliveredAndNoticedCount()).isEqualTo(1);
    }

    @Test
    void everyKindOfViolationIsListedWithItsCountAndCookies()
    {
        for (long cookie = 1; cookie <= 5; cookie++)
        {
            ledger.sent(cookie);
        }
        ledger.delivered(1);
        ledger.delivered(1);
        ledger.undelivered(2, true, "DISCONNECTED");
        ledger.undelivered(2, true, "DISCONNECTED");
        ledger.delivered(3);
        ledger.undelivered(3, false, "SHUTDOWN");
        // 4 and 5: nothing
        ledger.delivered(99);
        ledger.undelivered(98, false, "COLLAPSED");

        assertThat(ledger.violations()).containsExactly(
            "1 delivered more than once, e.g. 1",
            "1 noticed as undelivered more than once, e.g. 2 (DISCONNECTED)",
            "1 delivered and noticed as surely undelivered, e.g. 3 (SHUTDOWN)",
            "2 neither delivered nor noticed, e.g. 4, 5",
            "1 deliveries of cookies never sent",
            "1 notices for cookies never sent");
        assertThatThrownBy(ledger::assertExactlyOnce).isInstanceOf(AssertionError.class)
            .hasMessageContaining("sent 5, delivered 2, undelivered 2").hasMessageContaining("e.g. 4, 5");
    }

    @Test
    void aCookieSentTwiceIsATestBug()
    {
        ledger.sent(7);
        assertThatThrownBy(() -> ledger.sent(7)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("cookie 7 recorded as sent twice");
    }
}
