package io.troupe.membership.internal;

import io.aeron.archive.Archive;
import io.aeron.archive.ArchiveThreadingMode;
import io.aeron.archive.client.AeronArchive;
import io.aeron.cluster.ClusterControl;
import io.aeron.cluster.ConsensusModule;
import io.aeron.cluster.service.ClusteredServiceContainer;
import io.aeron.security.CredentialsSupplier;
import io.troupe.membership.table.VoterAddress;
import org.agrona.CloseHelper;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.IdleStrategy;

import java.io.File;
import java.util.function.Supplier;

/**
 * One voter of the membership service, in the node's process: an Aeron Archive (the log and snapshots, under the
 * data directory), a consensus module and the clustered service container running {@link MembershipService},
 * all on the membership's own media driver, each on one thread that also runs its Aeron client's conductor.
 * Started once; closed once, in the reverse order. Restarted on the same directory it recovers from its snapshot
 * and log and catches up with the leader.
 */
public final class Voter implements AutoCloseable
{
    private static final String LOG_CHANNEL = "aeron:udp?term-length=256k";
    private static final String LOCAL_ARCHIVE_CHANNEL = "aeron:ipc?term-length=64k";
    private static final int LOCAL_ARCHIVE_STREAM = 10;

    private final VoterSettings settings;
    private final VoterCounts counts;
    private final MembershipService service;
    private Archive archive;
    private ConsensusModule consensus;
    private ClusteredServiceContainer container;

    private Voter(final VoterSettings settings, final VoterCounts counts)
    {
        this.settings = settings;
        this.counts = counts;
        this.service = new MembershipService(settings.lease().toMillis(), settings.leaseCheck().toMillis(),
            settings.firstAssignedId(), settings.maxMembers(), settings.proof(), counts);
    }

    /**
     * Starts a voter; returns once its parts are running (an election follows on its own).
     *
     * @param settings what it needs.
     * @param counts   where it counts.
     * @param errors   where the errors of its agents go.
     * @return the voter.
     */
    public static Voter launch(final VoterSettings settings, final VoterCounts counts, final ErrorHandler errors)
    {
        final Voter voter = new Voter(settings, counts);
        try
        {
            voter.start(errors);
            return voter;
        }
        catch (final RuntimeException ex)
        {
            voter.close();
            throw ex;
        }
    }

    private void start(final ErrorHandler errors)
    {
        final VoterAddress self = settings.self();
        final File dir = settings.clusterDir();
        final Supplier<IdleStrategy> idle = () -> MembershipIdle.strategy(settings.maxIdlePark());
        final CredentialsSupplier voterCredentials = new NodeCredentials(settings.proof(), self.nodeId(), 1);
        final AeronArchive.Context archiveClient = new AeronArchive.Context()
            .aeronDirectoryName(settings.aeronDir())
            .controlRequestChannel(LOCAL_ARCHIVE_CHANNEL)
            .controlRequestStreamId(LOCAL_ARCHIVE_STREAM)
            .controlResponseChannel(LOCAL_ARCHIVE_CHANNEL)
            .credentialsSupplier(voterCredentials);
        archive = Archive.launch(new Archive.Context()
            .aeronDirectoryName(settings.aeronDir())
            .archiveDir(new File(dir, "archive"))
            .controlChannel("aeron:udp?endpoint=" + self.host() + ":" + (self.port() + 4))
            .localControlChannel(LOCAL_ARCHIVE_CHANNEL)
            .localControlStreamId(LOCAL_ARCHIVE_STREAM)
            .replicationChannel("aeron:udp?endpoint=" + self.host() + ":0")
            .recordingEventsEnabled(false)
            .threadingMode(ArchiveThreadingMode.SHARED)
            .idleStrategySupplier(idle)
            .authenticatorSupplier(() -> new MembershipAuthenticator(settings.proof(), counts,
                VoterCounts.Figure.ARCHIVE_SESSIONS_ADMITTED, VoterCounts.Figure.ARCHIVE_SESSIONS_REJECTED))
            // what this archive proves when it copies a term's end from the leader's archive (Aeron Cluster's log
            // replication, after an election that left this voter behind): without it the leader's archive
            // refused it and the election began again, and again, until every member's lease ran out
            .archiveClientContext(new AeronArchive.Context().credentialsSupplier(voterCredentials))
            .errorHandler(errors)
            .deleteArchiveOnStart(false));
        consensus = ConsensusModule.launch(new ConsensusModule.Context()
            .aeronDirectoryName(settings.aeronDir())
            .clusterDir(dir)
            .clusterMemberId(settings.index())
            .clusterMembers(VoterAddress.clusterMembers(settings.voters()))
            .ingressChannel("aeron:udp")
            .logChannel(LOG_CHANNEL)
            .replicationChannel("aeron:udp?endpoint=" + self.host() + ":0")
            .archiveContext(archiveClient.clone())
            .idleStrategySupplier(idle)
            .authenticatorSupplier(() -> new MembershipAuthenticator(settings.proof(), counts,
                VoterCounts.Figure.SESSIONS_ADMITTED, VoterCounts.Figure.SESSIONS_REJECTED))
            .leaderHeartbeatTimeoutNs(settings.heartbeatTimeout().toNanos())
            .startupCanvassTimeoutNs(settings.startupCanvass().toNanos())
            .sessionTimeoutNs(settings.sessionTimeout().toNanos())
            // one session per member, and the old one of a member that reconnected until it times out (Aeron
            // Cluster's default, 10, refused the eleventh node: found by membership.scale)
            .maxConcurrentSessions(2 * settings.maxMembers())
            .serviceCount(1)
            .errorHandler(errors)
            .deleteDirOnStart(false));
        container = ClusteredServiceContainer.launch(new ClusteredServiceContainer.Context()
            .aeronDirectoryName(settings.aeronDir())
            .clusterDir(dir)
            .archiveContext(archiveClient.clone())
            .clusteredService(service)
            .idleStrategySupplier(idle)
            .errorHandler(errors));
    }

    /**
     * The service this voter runs (its role, the leader's id).
     *
     * @return the service.
     */
    public MembershipService service()
    {
        return service;
    }

    /**
     * Asks the consensus module for a snapshot (Aeron Cluster's control toggle, as its ClusterTool would).
     *
     * @return the number of snapshots this voter had taken before, to wait for the next; -1 if the toggle was busy.
     */
    long requestSnapshot()
    {
        final long before = consensus.context().snapshotCounter().get();
        return ClusterControl.ToggleState.SNAPSHOT.toggle(consensus.context().controlToggleCounter()) ? before : -1;
    }

    /**
     * The state of this voter's election, as its consensus module counts it ({@code ElectionState} codes; CLOSED when
     * none is running). Only while the voter is open.
     *
     * @return the code.
     */
    public long electionState()
    {
        return consensus.context().electionStateCounter().get();
    }

    /**
     * The snapshots this voter has taken since it started.
     *
     * @return the count.
     */
    long snapshots()
    {
        return consensus.context().snapshotCounter().get();
    }

    /**
     * What it has counted.
     *
     * @return the counts.
     */
    public VoterCounts counts()
    {
        return counts;
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(container, consensus, archive);
    }
}
