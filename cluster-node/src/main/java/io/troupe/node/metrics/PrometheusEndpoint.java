package io.troupe.node.metrics;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.troupe.node.counters.CountersFileReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.nio.file.Path;

/**
 * The node's optional Prometheus endpoint ({@code troupe.metrics.prometheus}): an HTTP server on
 * {@code host:port} (loopback by default) serving {@code /metrics} in the Prometheus text format (and OpenMetrics
 * when asked), with the node's counters ({@link CountersCollector}), the JVM's metrics (memory, GC, threads, classes,
 * process) and, if enabled, per-actor-type counts and handling-time histograms ({@link ActorTypeCollector}); behind
 * a bearer token if one is configured. The server's threads are its own (a small pool), never the node's.
 */
public final class PrometheusEndpoint implements AutoCloseable
{
    private final HTTPServer server;

    private PrometheusEndpoint(final HTTPServer server)
    {
        this.server = server;
    }

    /**
     * Starts the endpoint.
     *
     * @param settings   where and how.
     * @param dataDir    the node's data directory, whose counters file it serves.
     * @param actorTypes the per-actor-type metrics, or null when off.
     * @return the running endpoint.
     * @throws IllegalStateException if the port is taken (the message names the key and the address).
     * @throws UncheckedIOException  if the server cannot start otherwise.
     */
    public static PrometheusEndpoint start(final MetricsConfig settings, final Path dataDir,
        final ActorTypeMetrics actorTypes)
    {
        final CountersFileReader file = CountersFileReader.open(dataDir);
        final PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(new CountersCollector(file));
        JvmMetrics.builder().register(registry);
        if (actorTypes != null)
        {
            registry.register(new ActorTypeCollector(actorTypes, file.nodeId()));
        }
        final HTTPServer.Builder builder = HTTPServer.builder().hostname(settings.host()).port(settings.port())
            .registry(registry);
        if (settings.bearerToken() != null)
        {
            builder.authenticator(new BearerAuthenticator(settings.bearerToken()));
        }
        try
        {
            return new PrometheusEndpoint(builder.buildAndStart());
        }
        catch (final BindException ex)
        {
            throw new IllegalStateException(MetricsSettings.PORT_KEY + " = " + settings.port() + ": " +
                settings.host() + ':' + settings.port() + " is in use (or not an address of this host)", ex);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("the Prometheus endpoint on " + settings.host() + ':' + settings.port() +
                " could not start", ex);
        }
    }

    /**
     * The port it listens on (the one chosen when the config said 0).
     *
     * @return the port.
     */
    public int port()
    {
        return server.getPort();
    }

    @Override
    public void close()
    {
        server.close();
    }
}
