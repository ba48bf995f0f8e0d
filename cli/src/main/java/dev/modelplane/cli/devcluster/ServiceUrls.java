package dev.modelplane.cli.devcluster;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Optional;

/**
 * A small kube-proxy for job containers: an {@code http(s)} URL whose host names a Service ({@code svc},
 * {@code svc.ns}, {@code svc.ns.svc}, {@code svc.ns.svc.cluster.local}) is pointed at a ready endpoint of that
 * Service (address and target port from its EndpointSlices, or from its ready pods as the EndpointSlice controller
 * would compute them). A URL that names no Service, or one without a ready endpoint, is left as it is: the process
 * then fails to connect, as it would in a cluster without endpoints.
 *
 * @param namespace the pod's namespace (for a bare {@code svc})
 * @param cluster where Services and endpoints are read
 */
record ServiceUrls(String namespace, ClusterView cluster) {
  /** The cluster domain of Service names. */
  static final String CLUSTER_DOMAIN = "cluster.local";

  /** A Service named by a host. */
  record ServiceName(String name, String namespace) {
  }

  /** {@code word} with a Service URL (whole, or as the value of {@code --flag=value}) pointed at an endpoint. */
  String rewrite(String word) {
    int eq = word.indexOf('=');
    if (word.startsWith("-") && eq > 1) {
      return word.substring(0, eq + 1) + url(word.substring(eq + 1));
    }
    return url(word);
  }

  private String url(String text) {
    if (!text.startsWith("http://") && !text.startsWith("https://")) {
      return text;
    }
    try {
      URI uri = new URI(text);
      if (uri.getHost() == null) {
        return text;
      }
      Optional<ServiceName> service = service(uri.getHost(), namespace);
      if (service.isEmpty()) {
        return text;
      }
      int port = uri.getPort() >= 0 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
      Optional<String> endpoint = cluster.endpoint(service.get().namespace(), service.get().name(), port);
      if (endpoint.isEmpty()) {
        return text;
      }
      String authority = (uri.getUserInfo() == null ? "" : uri.getUserInfo() + "@") + endpoint.get();
      return new URI(uri.getScheme() + "://" + authority + (uri.getRawPath() == null ? "" : uri.getRawPath())
          + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery())
          + (uri.getRawFragment() == null ? "" : "#" + uri.getRawFragment())).toString();
    } catch (URISyntaxException e) {
      return text;
    }
  }

  /** The Service {@code host} names, if it has a Service name's form. */
  static Optional<ServiceName> service(String host, String podNamespace) {
    String h = host.toLowerCase(java.util.Locale.ROOT);
    if (h.endsWith(".")) {
      h = h.substring(0, h.length() - 1);
    }
    if (h.endsWith(".svc." + CLUSTER_DOMAIN)) {
      h = h.substring(0, h.length() - CLUSTER_DOMAIN.length() - 1);
    }
    if (h.endsWith(".svc")) {
      h = h.substring(0, h.length() - 4);
    }
    String[] parts = h.split("\\.", -1);
    String label = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    if (parts.length == 1 && parts[0].matches(label) && !"localhost".equals(parts[0])
        && !parts[0].matches("[0-9]+")) {
      return Optional.of(new ServiceName(parts[0], podNamespace));
    }
    if (parts.length == 2 && parts[0].matches(label) && parts[1].matches(label) && !parts[1].matches("[0-9]+")) {
      return Optional.of(new ServiceName(parts[0], parts[1]));
    }
    return Optional.empty();
  }
}
