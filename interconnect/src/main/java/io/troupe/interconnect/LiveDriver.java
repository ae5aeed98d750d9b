package io.troupe.interconnect;

import io.aeron.CncFileDescriptor;
import io.aeron.CommonContext;
import org.agrona.BufferUtil;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;

/**
 * Whether a media driver is alive in an Aeron directory, so that a node never replaces a directory another node's
 * driver is using. A driver writes its heartbeat into {@code cnc.dat} once per timer interval (Aeron's default: one
 * second), so a heartbeat check alone needs more than a second to tell; a driver of a process that was killed a
 * moment ago would then block a restart. The directory's {@code cnc.dat} also names the driver's process: a driver
 * is alive if that process is, and its heartbeat is at most {@link #HEARTBEAT_LIMIT_MS} old.
 */
public final class LiveDriver
{
    /** The oldest heartbeat of a live driver: the default timer interval twice over. */
    public static final long HEARTBEAT_LIMIT_MS = 2_000;

    private LiveDriver()
    {
    }

    /**
     * Whether a driver is alive in a directory.
     *
     * @param aeronDir the Aeron directory.
     * @return true if its {@code cnc.dat} names a process that runs and its heartbeat is recent.
     */
    public static boolean isAlive(final Path aeronDir)
    {
        final File cnc = aeronDir.resolve(CncFileDescriptor.CNC_FILE).toFile();
        if (!cnc.isFile() || cnc.length() <= CncFileDescriptor.META_DATA_LENGTH)
        {
            return false;
        }
        final MappedByteBuffer mapped = IoUtil.mapExistingFile(cnc, "CnC file");
        try
        {
            final UnsafeBuffer meta = CncFileDescriptor.createMetaDataBuffer(mapped);
            final long pid = meta.getLongVolatile(CncFileDescriptor.pidOffset(0));
            final boolean processRuns = pid <= 0 || ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
            return processRuns && CommonContext.isDriverActive(HEARTBEAT_LIMIT_MS, message -> { }, mapped);
        }
        finally
        {
            BufferUtil.free(mapped);
        }
    }
}
