package io.troupe.membership.internal;

import io.aeron.security.CredentialsSupplier;

/**
 * A node's side of the membership service's authentication: who it says it is in the connect request, and the
 * proof for the challenge it gets back ({@link MembershipProof}).
 */
public final class NodeCredentials implements CredentialsSupplier
{
    private final MembershipProof proof;
    private final int nodeId;
    private final long incarnation;

    /**
     * The credentials of one node incarnation.
     *
     * @param proof       the cluster's secret and id.
     * @param nodeId      its node id, or 0 if it will be assigned one.
     * @param incarnation its incarnation.
     */
    public NodeCredentials(final MembershipProof proof, final int nodeId, final long incarnation)
    {
        this.proof = proof;
        this.nodeId = nodeId;
        this.incarnation = incarnation;
    }

    @Override
    public byte[] encodedCredentials()
    {
        return proof.credentials(nodeId, incarnation);
    }

    @Override
    public byte[] onChallenge(final byte[] encodedChallenge)
    {
        synchronized (proof) // the archive's and the cluster's clients may ask from their own threads
        {
            return proof.prove(nodeId, incarnation, encodedChallenge);
        }
    }
}
