package io.troupe.client;

import io.troupe.registry.ClusterEndpoints;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EndpointsTest
{
    private static List<String> round(final Endpoints endpoints)
    {
        final List<String> tried = new ArrayList<>();
        for (int i = 0; i < endpoints.size(); i++)
        {
            tried.add(endpoints.next());
        }
        return tried;
    }

    @Test
    void theGivenEndpointsComeFirstThenTheLearnedOnesEachOnce()
    {
        final Endpoints endpoints = new Endpoints(List.of("a:1", "b:2"));
        assertThat(round(endpoints)).containsExactly("a:1", "b:2");

        assertThat(endpoints.learn(new ClusterEndpoints(3, List.of("b:2", "c:3", "d:4")))).isTrue();
        assertThat(endpoints.all()).containsExactly("a:1", "b:2", "c:3", "d:4");
        assertThat(endpoints.size()).isEqualTo(4);
        assertThat(round(endpoints)).containsExactlyInAnyOrder("a:1", "b:2", "c:3", "d:4");
    }

    @Test
    void anOlderListIsIgnoredAndANewerOneReplacesTheLearnedOnesButNeverTheGiven()
    {
        final Endpoints endpoints = new Endpoints(List.of("a:1"));
        endpoints.learn(new ClusterEndpoints(5, List.of("a:1", "b:2", "c:3")));
        assertThat(endpoints.learn(new ClusterEndpoints(4, List.of("x:9")))).as("older").isFalse();
        assertThat(endpoints.learn(new ClusterEndpoints(5, List.of("a:1", "b:2", "c:3")))).as("the same").isFalse();
        assertThat(endpoints.all()).containsExactly("a:1", "b:2", "c:3");

        assertThat(endpoints.learn(new ClusterEndpoints(6, List.of("c:3")))).isTrue(); // a and b went
        assertThat(endpoints.all()).containsExactly("a:1", "c:3");
        assertThat(endpoints.learn(new ClusterEndpoints(7, List.of()))).isTrue();
        assertThat(endpoints.all()).containsExactly("a:1");
    }

    @Test
    void theRoundGoesOnWhereItWasWhenTheListChanges()
    {
        final Endpoints endpoints = new Endpoints(List.of("a:1"));
        endpoints.learn(new ClusterEndpoints(1, List.of("b:2", "c:3")));
        assertThat(endpoints.next()).isEqualTo("a:1");
        assertThat(endpoints.next()).isEqualTo("b:2");
        endpoints.learn(new ClusterEndpoints(2, List.of("b:2", "c:3", "d:4")));
        assertThat(endpoints.next()).as("the one that was next").isEqualTo("c:3");
        assertThat(endpoints.next()).isEqualTo("d:4");
        assertThat(endpoints.next()).isEqualTo("a:1");
        assertThatThrownBy(() -> new Endpoints(List.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
