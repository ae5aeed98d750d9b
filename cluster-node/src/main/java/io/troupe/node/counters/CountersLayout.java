package io.troupe.node.counters;

import org.agrona.BitUtil;
import org.agrona.concurrent.status.CountersReader;

/**
 * The layout of a node's counters file ({@value #FILE_NAME} in its data directory), shared by the node that writes
 * it and the tools that read it. Little-endian, one mapped file:
 * <pre>
 *   0  int   magic ({@link #MAGIC}), written last when the file is made
 *   4  int   layout version ({@link #VERSION})
 *   8  long  pid of the node's process
 *  16  long  start time, ms since the epoch
 *  24  long  incarnation
 *  32  int   node id
 *  36  int   state ({@link NodeState} ordinal)
 *  40  long  last publish, ms since the epoch (the node's heartbeat; stops when the node does)
 *  48  long  publish interval, ns
 *  56  int   length of the counters' metadata section
 *  60  int   length of the counters' values section
 *  64  int   length of the error log section
 *  68  int   length of the cluster id
 *  72  ...   cluster id, US-ASCII, up to {@link #MAX_CLUSTER_ID} bytes
 * 256  int   readiness sequence: odd while the node rewrites the text below, even when it is whole
 * 260  int   readiness length
 * 264  ...   readiness, US-ASCII, up to {@link #MAX_READINESS} bytes ("ready: 2 of 2 peers up", "not ready: ...")
 * 1024 ...   metadata (Agrona CountersManager), then values, then the error log (Agrona DistinctErrorLog)
 * </pre>
 * Each counter's key holds its labels as {@code int length} then {@code name=value,name=value} in US-ASCII.
 */
public final class CountersLayout
{
    /** The file's name in the data directory. */
    public static final String FILE_NAME = "counters.dat";
    /** "TRPC" little-endian. */
    public static final int MAGIC = 0x43505254;
    /** The layout version this build writes and reads. */
    public static final int VERSION = 2;
    /** Where the sections begin. */
    public static final int HEADER_LENGTH = 1024;
    /** Longest cluster id kept in the header. */
    public static final int MAX_CLUSTER_ID = 256 - 72;
    /** Longest readiness text kept in the header. */
    public static final int MAX_READINESS = HEADER_LENGTH - 264;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 4;
    static final int PID_OFFSET = 8;
    static final int START_OFFSET = 16;
    static final int INCARNATION_OFFSET = 24;
    static final int NODE_ID_OFFSET = 32;
    static final int STATE_OFFSET = 36;
    static final int HEARTBEAT_OFFSET = 40;
    static final int INTERVAL_OFFSET = 48;
    static final int METADATA_LENGTH_OFFSET = 56;
    static final int VALUES_LENGTH_OFFSET = 60;
    static final int ERROR_LOG_LENGTH_OFFSET = 64;
    static final int CLUSTER_ID_LENGTH_OFFSET = 68;
    static final int CLUSTER_ID_OFFSET = 72;
    static final int READINESS_SEQUENCE_OFFSET = 256;
    static final int READINESS_LENGTH_OFFSET = 260;
    static final int READINESS_OFFSET = 264;

    /** Counters a node makes room for by default. */
    public static final int DEFAULT_COUNTERS = 4096;
    /** Error log bytes by default. */
    public static final int DEFAULT_ERROR_LOG_BYTES = 1 << 20;
    /** The most counters a file may say it has (a reader refuses more). */
    static final int MAX_COUNTERS = 1 << 20;
    /** The largest error log a file may say it has. */
    static final int MAX_ERROR_LOG_BYTES = 1 << 28;

    private CountersLayout()
    {
    }

    /**
     * Bytes of the values section for a number of counters.
     *
     * @param counters how many.
     * @return the length.
     */
    static int valuesLength(final int counters)
    {
        return counters * CountersReader.COUNTER_LENGTH;
    }

    /**
     * Bytes of the metadata section for a number of counters.
     *
     * @param counters how many.
     * @return the length.
     */
    static int metadataLength(final int counters)
    {
        return counters * CountersReader.METADATA_LENGTH;
    }

    /**
     * Bytes of the whole file.
     *
     * @param counters      how many counters.
     * @param errorLogBytes error log bytes.
     * @return the length.
     */
    static long fileLength(final int counters, final int errorLogBytes)
    {
        return HEADER_LENGTH + (long)metadataLength(counters) + valuesLength(counters) +
            BitUtil.align(errorLogBytes, 64);
    }
}
