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
    /** The last challenge answered: the session's {@link SessionGuard} is keyed by it. */
    private volatile byte[] challenge;

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
        challenge = encodedChallenge.clone();
        return proof.prove(nodeId, incarnation, encodedChallenge); // thread safe: clients ask from their threads
    }

    /**
     * The guard of the session these credentials were last challenged for.
     *
     * @return the node's side of the guard, or null if no challenge came.
     */
    SessionGuard guard()
    {
        final byte[] last = challenge;
        return last == null ? null : proof.guard(false, nodeId, incarnation, last);
    }
}
