package io.troupe.serialization.wire;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The unchecked access of the envelope hot path: little-endian, and checked in tests so fuzzing sees overruns. */
class RawAccessTest
{
    @Test
    void testsRunWithTheCheckOnSoAnOverrunFailsLoudly()
    {
        assertThat(Boolean.getBoolean("troupe.serialization.checkRawAccess")).isTrue();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[12]);
        assertThatThrownBy(() -> RawAccess.getLong(buffer, 5)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> RawAccess.putInt(buffer, 9, 1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> RawAccess.getUnsignedShort(buffer, -1)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void readsAndWritesLittleEndianOnHeapAndDirectBuffers()
    {
        for (final UnsafeBuffer buffer : new UnsafeBuffer[] {
            new UnsafeBuffer(new byte[32]), new UnsafeBuffer(ByteBuffer.allocateDirect(32))})
        {
            RawAccess.putLong(buffer, 3, 0x0102_0304_0506_0708L);
            RawAccess.putInt(buffer, 12, 0xCAFE_BABE);
            RawAccess.putShort(buffer, 20, (short)0xFEDC);
            assertThat(buffer.getLong(3, ByteOrder.LITTLE_ENDIAN)).isEqualTo(0x0102_0304_0506_0708L);
            assertThat(buffer.getByte(3)).isEqualTo((byte)0x08);
            assertThat(RawAccess.getLong(buffer, 3)).isEqualTo(0x0102_0304_0506_0708L);
            assertThat(RawAccess.getInt(buffer, 12)).isEqualTo(0xCAFE_BABE);
            assertThat(RawAccess.getUnsignedShort(buffer, 20)).isEqualTo(0xFEDC);
        }
    }
}
