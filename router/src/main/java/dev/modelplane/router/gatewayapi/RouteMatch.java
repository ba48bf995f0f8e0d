package dev.modelplane.router.gatewayapi;

import java.util.List;
import java.util.Map;

/**
 * The route rule a request matched: where it goes (a weighted choice of backends) and how it is changed on the way
 * (header filters, URL rewrite). Instances are immutable and shared by all requests that match the same rule.
 */
public final class RouteMatch {
  private final String route;
  private final int ruleIndex;
  private final MatchSpec match;
  private final List<Backend> backends;
  private final List<List<HeaderModifier>> backendFilters;
  private final List<HeaderModifier> ruleFilters;
  private final UrlRewrite rewrite;
  private final int totalWeight;

  RouteMatch(String route, int ruleIndex, MatchSpec match, List<Backend> backends,
      List<List<HeaderModifier>> backendFilters, List<HeaderModifier> ruleFilters, UrlRewrite rewrite) {
    this.route = route;
    this.ruleIndex = ruleIndex;
    this.match = match;
    this.backends = List.copyOf(backends);
    this.backendFilters = List.copyOf(backendFilters);
    this.ruleFilters = List.copyOf(ruleFilters);
    this.rewrite = rewrite;
    this.totalWeight = backends.stream().mapToInt(Backend::weight).sum();
  }

  /** {@code namespace/name} of the HTTPRoute, for logs and metrics. */
  public String route() {
    return route;
  }

  /** Position of the matched rule in the route's {@code spec.rules}. */
  public int ruleIndex() {
    return ruleIndex;
  }

  /**
   * Picks a backend in proportion to the weights: {@code u} in [0, 1) walks the backends' cumulative weights, so a
   * uniform {@code u} yields each backend with probability weight / total. A backend of weight 0 is never picked.
   * Unusable backends are picked in their turn too (their pool is null: the caller answers 500).
   *
   * @param u a number in [0, 1), normally uniformly random
   * @return the backend, or null when the rule has no backends or all weights are 0
   */
  public Backend pick(double u) {
    if (totalWeight <= 0) {
      return null;
    }
    double target = Math.min(Math.max(u, 0), Math.nextDown(1.0)) * totalWeight;
    long cumulative = 0;
    for (Backend backend : backends) {
      cumulative += backend.weight();
      if (backend.weight() > 0 && target < cumulative) {
        return backend;
      }
    }
    for (int i = backends.size() - 1; i >= 0; i--) {
      if (backends.get(i).weight() > 0) {
        return backends.get(i);
      }
    }
    return null;
  }

  /**
   * Applies the rule's {@code RequestHeaderModifier} filters, then those of the picked backend's reference, to
   * {@code headersToModify}: set replaces, add appends to an existing value with a comma, remove drops; names are
   * compared without regard to case.
   *
   * @param picked the backend {@link #pick} returned (null applies only the rule's filters)
   * @param headersToModify the request's headers, changed in place
   */
  public void applyHeaderFilters(Backend picked, Map<String, List<String>> headersToModify) {
    for (HeaderModifier filter : ruleFilters) {
      filter.apply(headersToModify);
    }
    int index = indexOf(picked);
    if (index >= 0) {
      for (HeaderModifier filter : backendFilters.get(index)) {
        filter.apply(headersToModify);
      }
    }
  }

  private int indexOf(Backend picked) {
    if (picked == null) {
      return -1;
    }
    for (int i = 0; i < backends.size(); i++) {
      if (backends.get(i) == picked) {
        return i;
      }
    }
    return backends.indexOf(picked);
  }

  /**
   * The path to send upstream: the rule's {@code ReplaceFullPath}, or its {@code ReplacePrefixMatch} applied to the
   * matched prefix on path-segment boundaries ({@code /foo} replaced by {@code /bar} turns {@code /foo/x} into
   * {@code /bar/x}; replaced by {@code /} it gives {@code /x}); without a path rewrite, {@code path} unchanged.
   */
  public String rewrittenPath(String path) {
    return rewrite == null ? path : rewrite.apply(path, match);
  }

  /** The Host to send upstream when the rule rewrites it, else null. */
  public String rewrittenHost() {
    return rewrite == null ? null : rewrite.hostname();
  }

  @Override
  public String toString() {
    return route + "#" + ruleIndex;
  }
}
