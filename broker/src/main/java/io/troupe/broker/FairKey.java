package io.troupe.broker;

import io.troupe.actor.ActorId;

import java.util.function.Function;

/**
 * What a fair queue ({@link FairQueueSpec}) groups requests by: each distinct key gets its own inner queue,
 * and the inner queues are served round robin. Immutable.
 */
public sealed interface FairKey permits FairKey.Standard, FairKey.Custom
{
    /** The requester's node: each node gets an equal share. Boxes node ids above 127. */
    FairKey CLIENT_NODE = Standard.CLIENT_NODE;
    /** The requester: each actor gets an equal share. */
    FairKey CLIENT_ACTOR = Standard.CLIENT_ACTOR;
    /** The request's own {@link BrokerRequest#fairKey()}, chosen by the requester. */
    FairKey REQUEST_KEY = Standard.REQUEST_KEY;

    /**
     * A key computed by a function of the request.
     *
     * @param function the key of a request; keys are compared with {@code equals}, null is a key too.
     * @return the fair key.
     */
    static FairKey of(final Function<BrokerRequest, Object> function)
    {
        return new Custom(function);
    }

    /**
     * The key of a request.
     *
     * @param request the request.
     * @return its key.
     */
    Object keyOf(BrokerRequest request);

    /**
     * The key of any request of a requester, if it depends on the requester alone (lets a cancel go straight
     * to the right inner queue).
     *
     * @param requester the requester.
     * @return the key, or null if requests of one requester may have different keys.
     */
    Object keyOfRequester(ActorId requester);

    /** The keys the broker knows how to compute. */
    enum Standard implements FairKey
    {
        /** See {@link FairKey#CLIENT_NODE}. */
        CLIENT_NODE
        {
            @Override
            public Object keyOfRequester(final ActorId requester)
            {
                return requester.nodeId();
            }
        },
        /** See {@link FairKey#CLIENT_ACTOR}. */
        CLIENT_ACTOR
        {
            @Override
            public Object keyOfRequester(final ActorId requester)
            {
                return requester;
            }
        },
        /** See {@link FairKey#REQUEST_KEY}. */
        REQUEST_KEY
        {
            @Override
            public Object keyOf(final BrokerRequest request)
            {
                return request.fairKey();
            }

            @Override
            public Object keyOfRequester(final ActorId requester)
            {
                return null;
            }
        };

        @Override
        public Object keyOf(final BrokerRequest request)
        {
            return keyOfRequester(request.requester());
        }
    }

    /**
     * A key computed by a function of the request.
     *
     * @param function the key of a request.
     */
    record Custom(Function<BrokerRequest, Object> function) implements FairKey
    {
        /**
         * Validates the function.
         *
         * @param function the key of a request.
         * @throws IllegalArgumentException if the function is null.
         */
        public Custom
        {
            SpecChecks.notNull("FairKey.Custom", "function", function);
        }

        @Override
        public Object keyOf(final BrokerRequest request)
        {
            return function.apply(request);
        }

        @Override
        public Object keyOfRequester(final ActorId requester)
        {
            return null;
        }
    }
}
