package dev.modelplane.router.gatewayapi;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The routes of one port: the hostnames of the listeners served there and every (route, rule, match) attached to
 * them, kept in the Gateway API's precedence order so that the first candidate that matches, among those whose
 * hostnames match the request's host most specifically, is the answer.
 */
final class RouteTable {
  /**
   * One match of one rule of one route, as attached through one listener.
   *
   * @param result what a request matching it gets
   * @param match the match conditions
   * @param listenerHostname the hostname of the listener it came through, or null
   * @param hostnames the hostnames it serves there (empty: every host)
   * @param route the route
   * @param matchIndex the position of the match in its rule
   */
  record Candidate(RouteMatch result, MatchSpec match, String listenerHostname, List<String> hostnames,
      RouteSpec route, int matchIndex) {}

  private static final Comparator<Candidate> ORDER = Comparator
      .comparing(Candidate::match, MatchSpec.PRECEDENCE)
      .thenComparing(c -> c.route().created())
      .thenComparing(c -> c.route().key())
      .thenComparingInt(c -> c.result().ruleIndex())
      .thenComparingInt(Candidate::matchIndex);

  private final List<String> listenerHostnames;
  private final List<Candidate> candidates;

  RouteTable(List<String> listenerHostnames, List<Candidate> candidates) {
    this.listenerHostnames = new ArrayList<>(listenerHostnames);
    List<Candidate> sorted = new ArrayList<>(candidates);
    sorted.sort(ORDER);
    this.candidates = List.copyOf(sorted);
  }

  /**
   * The best match for the request, or null. With a host, only routes of the listeners whose hostname matches it
   * most specifically take part, and among those a route whose hostname matches more specifically (exact before
   * wildcard, longer before shorter) beats the precedence order. Without a host, hostnames are not considered.
   */
  RouteMatch match(HttpRequestView request) {
    String host = request.host() == null || request.host().isEmpty() ? null : request.host();
    int listenerBest = Hostnames.ANY;
    if (host != null) {
      listenerBest = Hostnames.NONE;
      for (String hostname : listenerHostnames) {
        listenerBest = Math.max(listenerBest, Hostnames.specificity(hostname, host));
      }
      if (listenerBest == Hostnames.NONE) {
        return null;
      }
    }
    Map<String, String> query = MatchSpec.parseQuery(request.query());
    Candidate best = null;
    int bestHost = Hostnames.NONE;
    for (Candidate candidate : candidates) {
      int hostRank = Hostnames.ANY;
      if (host != null) {
        if (Hostnames.specificity(candidate.listenerHostname(), host) != listenerBest) {
          continue;
        }
        hostRank = Hostnames.specificity(candidate.hostnames(), host);
        if (hostRank <= bestHost) {
          continue;
        }
      } else if (best != null) {
        break;
      }
      if (candidate.match().test(request, query)) {
        best = candidate;
        bestHost = hostRank;
      }
    }
    return best == null ? null : best.result();
  }
}
