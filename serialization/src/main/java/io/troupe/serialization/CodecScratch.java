package io.troupe.serialization;

/**
 * One thread's {@link EventWriter} and {@link EventReader} for a codec, kept for reuse so that measuring and
 * encoding allocate nothing. A codec re-entered on the same thread (a writer lambda that encodes another event
 * with the same codec) finds them in use and gets fresh ones.
 */
final class CodecScratch
{
    private final ThreadLocal<Slot> slots = ThreadLocal.withInitial(Slot::new);

    /** This thread's slot: borrow from it and give back to it in a {@code finally}. */
    Slot slot()
    {
        return slots.get();
    }

    /** A thread's writer and reader, and whether they are in use further up its stack. */
    static final class Slot
    {
        private final EventWriter writer = new EventWriter();
        private final EventReader reader = new EventReader();
        private boolean writerBusy;
        private boolean readerBusy;

        EventWriter borrowWriter()
        {
            if (writerBusy)
            {
                return new EventWriter(); // re-entered: rare, allocate
            }
            writerBusy = true;
            return writer;
        }

        void giveBack(final EventWriter borrowed)
        {
            if (borrowed == writer)
            {
                writer.measure(); // drops the buffer it wrote to
                writerBusy = false;
            }
        }

        EventReader borrowReader()
        {
            if (readerBusy)
            {
                return new EventReader();
            }
            readerBusy = true;
            return reader;
        }

        void giveBack(final EventReader borrowed)
        {
            if (borrowed == reader)
            {
                reader.reset();
                readerBusy = false;
            }
        }
    }
}
