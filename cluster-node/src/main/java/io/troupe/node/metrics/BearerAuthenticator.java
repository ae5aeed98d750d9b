package io.troupe.node.metrics;

import com.sun.net.httpserver.Authenticator;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Lets a scrape in only with {@code Authorization: Bearer <token>} (compared in constant time); any other request gets
 * 401 with a {@code WWW-Authenticate: Bearer} challenge.
 */
final class BearerAuthenticator extends Authenticator
{
    private final byte[] expected;

    BearerAuthenticator(final String token)
    {
        this.expected = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public Result authenticate(final HttpExchange exchange)
    {
        final String given = exchange.getRequestHeaders().getFirst("Authorization");
        if (given != null && MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), expected))
        {
            return new Success(new HttpPrincipal("prometheus", "troupe"));
        }
        exchange.getResponseHeaders().add("WWW-Authenticate", "Bearer realm=\"troupe\"");
        return new Failure(401);
    }
}
