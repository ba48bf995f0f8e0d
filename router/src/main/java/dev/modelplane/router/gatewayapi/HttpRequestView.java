package dev.modelplane.router.gatewayapi;

import java.util.Map;

/**
 * A request as route matching sees it.
 *
 * @param method the HTTP method, e.g. {@code POST}
 * @param host the Host (or {@code :authority}) without port; empty or null when the request carries none
 * @param path the path without the query string
 * @param query the raw query string without the leading {@code ?}; may be empty
 * @param headers header names in lower case to their values, repeated headers joined with {@code ,}
 */
public record HttpRequestView(String method, String host, String path, String query, Map<String, String> headers) {}
