package io.troupe.broker;

import io.troupe.broker.TestRequests.RecordingSink;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.troupe.broker.TestRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

/** Every policy reports when its oldest queued request was sent (meters read the queue's current sojourn). */
class OldestSentTest
{
    private static final List<QueueSpec> SPECS = List.of(
        DropQueueSpec.fifo(10),
        TimeoutQueueSpec.of(Duration.ofSeconds(10)),
        CodelQueueSpec.defaults(),
        new FairQueueSpec(DropQueueSpec.fifo(10), FairKey.REQUEST_KEY));

    @Test
    void theOldestQueuedRequestsSendTimeOrMinValueWhenEmpty()
    {
        for (final QueueSpec spec : SPECS)
        {
            final RequestQueue queue = spec.newQueue();
            final RecordingSink drops = new RecordingSink();
            assertThat(queue.oldestSentNs()).as("%s empty", spec).isEqualTo(Long.MIN_VALUE);
            queue.enqueue(request(1, 100, "a"), 100, drops);
            queue.enqueue(request(2, 200, "b"), 200, drops);
            assertThat(queue.oldestSentNs()).as("%s", spec).isEqualTo(100);
            assertThat(queue.dequeue(300, drops).ref()).isEqualTo(1);
            assertThat(queue.oldestSentNs()).as("%s after a match", spec).isEqualTo(200);
            queue.dequeue(300, drops);
            assertThat(queue.oldestSentNs()).as("%s emptied", spec).isEqualTo(Long.MIN_VALUE);
        }
    }
}
