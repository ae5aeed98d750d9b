package io.troupe.bench.pekko;

import java.util.List;

/**
 * One load driver selectable from the command line. Implementations read and validate all their options
 * before they start an actor system, so that a bad command line fails fast with a {@link UsageException}.
 */
interface Workload
{
    /**
     * The name given on the command line, e.g. {@code local.pingpong}.
     *
     * @return the name.
     */
    String name();

    /**
     * Options specific to this workload, without the dashes; the common ones are accepted too.
     *
     * @return the option names.
     */
    List<String> options();

    /**
     * Usage lines for this workload, without a trailing newline.
     *
     * @return the text.
     */
    String usage();

    /**
     * Runs the workload and prints its {@code RESULT} lines.
     *
     * @param options the parsed options.
     * @throws Exception if the run fails; an {@link UsageException} if an option value is invalid.
     */
    void run(Options options) throws Exception;
}
