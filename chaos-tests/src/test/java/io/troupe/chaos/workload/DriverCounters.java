package io.troupe.chaos.workload;

import io.aeron.AeronCounters;
import io.aeron.CncFileDescriptor;
import org.agrona.DirectBuffer;
import org.agrona.IoUtil;
import org.agrona.concurrent.status.CountersReader;

import java.io.File;
import java.nio.MappedByteBuffer;

/**
 * Prints, on one line, the media driver's system counters that are not zero (NAKs sent and received, retransmits,
 * loss gap fills, errors, ...), read from the driver's CnC file in the given Aeron directory. The chaos suites run it
 * in each node's container for a failure report: a session that ended while the network was only slow is explained
 * by what the transport did underneath.
 */
public final class DriverCounters
{
    private DriverCounters()
    {
    }

    /**
     * @param args the Aeron directory.
     */
    public static void main(final String[] args)
    {
        final MappedByteBuffer cnc = IoUtil.mapExistingFile(new File(args[0], CncFileDescriptor.CNC_FILE), "cnc");
        try
        {
            final DirectBuffer meta = CncFileDescriptor.createMetaDataBuffer(cnc);
            final CountersReader counters = new CountersReader(
                CncFileDescriptor.createCountersMetaDataBuffer(cnc, meta),
                CncFileDescriptor.createCountersValuesBuffer(cnc, meta));
            final StringBuilder line = new StringBuilder();
            counters.forEach((counterId, typeId, key, label) ->
            {
                final long value = counters.getCounterValue(counterId);
                if (typeId == AeronCounters.DRIVER_SYSTEM_COUNTER_TYPE_ID && value != 0)
                {
                    line.append(line.length() == 0 ? "" : ", ").append(label).append(' ').append(value);
                }
            });
            System.out.println(line);
        }
        finally
        {
            IoUtil.unmap(cnc);
        }
    }
}
