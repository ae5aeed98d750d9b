package io.troupe.samples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The programs users copy do what their documentation says. */
@Timeout(60)
class SamplesTest
{
    @TempDir
    Path dir;

    @Test
    void theFirstActorEchoes() throws Exception
    {
        assertThat(FirstActor.run("hello")).isEqualTo("echo: hello");
    }

    @Test
    void node2sGreeterAnswersNode1() throws Exception
    {
        assertThat(TwoNodes.run(dir, "hi")).isEqualTo(new TwoNodes.Greeting("node 2 greets back: hi"));
    }
}
