package io.troupe.broker;

import io.troupe.actor.ActorId;

import java.util.ArrayList;
import java.util.List;

/** A {@link MeterOutput} that records every call, in order, for assertions. */
class RecordingMeterOutput implements MeterOutput
{
    /** One {@link #send} call. */
    record Sent(ActorId recipient, Object event, int type)
    {
    }

    /** One {@link #alarm} call. */
    record Alarm(String name, boolean raised, long nowNs)
    {
    }

    final List<Sent> sent = new ArrayList<>();
    final List<Alarm> alarms = new ArrayList<>();

    @Override
    public void send(final ActorId recipient, final Object event, final int type)
    {
        sent.add(new Sent(recipient, event, type));
    }

    @Override
    public void alarm(final String name, final boolean raised, final long nowNs)
    {
        alarms.add(new Alarm(name, raised, nowNs));
    }
}
