package io.troupe.interconnect;

import io.aeron.driver.DataPacketDispatcher;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.media.ReceiveChannelEndpoint;
import io.aeron.driver.media.UdpChannel;
import io.aeron.protocol.SetupFlyweight;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import java.net.InetSocketAddress;

/**
 * The embedded media driver's receiving endpoint, with an {@link ImageGuard} in front of image creation: a
 * SETUP the guard refuses is dropped before the driver maps any log buffer for it. Runs on the driver's thread.
 */
final class GuardedReceiveEndpoint extends ReceiveChannelEndpoint
{
    private final ImageGuard guard;

    GuardedReceiveEndpoint(
        final UdpChannel udpChannel,
        final DataPacketDispatcher dispatcher,
        final AtomicCounter statusIndicator,
        final MediaDriver.Context context,
        final ImageGuard guard)
    {
        super(udpChannel, dispatcher, statusIndicator, context);
        this.guard = guard;
    }

    @Override
    public void onSetupMessage(
        final SetupFlyweight header,
        final UnsafeBuffer buffer,
        final int length,
        final InetSocketAddress srcAddress,
        final int transportIndex)
    {
        if (guard.admitSetup(header.streamId(), header.termLength(), srcAddress))
        {
            super.onSetupMessage(header, buffer, length, srcAddress, transportIndex);
        }
    }
}
