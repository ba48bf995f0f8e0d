package dev.modelplane.router.session;

import dev.modelplane.router.plugin.PluginParameters;
import dev.modelplane.router.pool.EndpointId;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.ProfileRunResult;
import dev.modelplane.router.scheduling.SchedulingResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * What {@code session-affinity-filter} and {@code session-affinity-scorer} share: llm-d's two strategies for finding
 * the endpoint a session's earlier requests went to, and for remembering it. The filter pins the request there, the
 * scorer prefers it.
 *
 * <ul>
 *   <li>{@code encoded_endpoint_header} (default), stateless: the client sends back the header the router set on its
 *       previous response ({@code x-session-token}), the base64 (standard alphabet, padded) of the endpoint's
 *       {@code namespace/name}. A token that does not decode, or names no candidate, expresses no preference.</li>
 *   <li>{@code session_id}: the client sends an opaque identifier ({@code x-session-id}, or other sources tried in
 *       order); the router binds it to the endpoint its first request went to, refreshes the binding while requests
 *       keep going there, and moves it only when the bound endpoint was not a candidate at all. Nothing is written
 *       back. An unbound session, or one whose endpoint is not a candidate, expresses no preference.</li>
 * </ul>
 *
 * <p>{@code profileName} selects whose pick is remembered (or written back): a profile's first target, by default the
 * primary profile's (under {@code encoded_endpoint_header}, the endpoint that actually served).
 */
final class SessionAffinity {
  static final String ENCODED_ENDPOINT_HEADER = "encoded_endpoint_header";
  static final String SESSION_ID = "session_id";
  static final String DEFAULT_TOKEN_HEADER = "x-session-token";
  static final String DEFAULT_SESSION_ID_HEADER = "x-session-id";
  static final double DEFAULT_EVICTION_TTL_SECONDS = 300;
  static final double DEFAULT_EVICTION_SWEEP_SECONDS = 10;

  private final String tokenHeader;
  private final String profileName;
  private final List<SessionIdSource> sources;
  private final SessionBindings bindings;
  private final String presenceKey;

  /** The {@code encoded_endpoint_header} strategy on {@code tokenHeader}. */
  SessionAffinity(String tokenHeader, String profileName) {
    this(tokenHeader, profileName, null, null, null);
  }

  /** The {@code session_id} strategy; {@code presenceKey} names this plugin's per-request note. */
  SessionAffinity(List<SessionIdSource> sources, SessionBindings bindings, String profileName, String presenceKey) {
    this(null, profileName, List.copyOf(sources), bindings, presenceKey);
  }

  private SessionAffinity(String tokenHeader, String profileName, List<SessionIdSource> sources,
      SessionBindings bindings, String presenceKey) {
    this.tokenHeader = tokenHeader;
    this.profileName = profileName == null ? "" : profileName;
    this.sources = sources;
    this.bindings = bindings;
    this.presenceKey = presenceKey;
  }

  /**
   * Reads llm-d's parameters: {@code strategy}, {@code profileName}, {@code encodedEndpointHeaderConfig.header}
   * ({@code x-session-token}), {@code sessionIdConfig.sources} (one header source, {@code x-session-id}),
   * {@code sessionIdConfig.evictionTtlSeconds} (300) and {@code sessionIdConfig.evictionSweepSeconds} (10). Only the
   * chosen strategy's block is checked.
   */
  static SessionAffinity from(String pluginKey, PluginParameters p, LongSupplier nanoClock) {
    p.requireOnly("strategy", "profileName", "encodedEndpointHeaderConfig", "sessionIdConfig");
    String strategy = p.text("strategy", ENCODED_ENDPOINT_HEADER);
    String profileName = p.text("profileName", "");
    PluginParameters header = nested(p, "encodedEndpointHeaderConfig", "header");
    PluginParameters sessionId = nested(p, "sessionIdConfig", "sources", "evictionTtlSeconds",
        "evictionSweepSeconds");
    return switch (strategy) {
      case ENCODED_ENDPOINT_HEADER -> new SessionAffinity(normalizeHeader(header.text("header", "")), profileName);
      case SESSION_ID -> sessionId(pluginKey, sessionId, profileName, nanoClock);
      default -> throw new IllegalArgumentException("strategy must be \"" + ENCODED_ENDPOINT_HEADER + "\" or \""
          + SESSION_ID + "\", got \"" + strategy + "\"");
    };
  }

  private static SessionAffinity sessionId(String pluginKey, PluginParameters p, String profileName,
      LongSupplier nanoClock) {
    try {
      List<SessionIdSource> sources = new ArrayList<>();
      List<PluginParameters> listed = p.objectList("sources");
      for (int i = 0; i < listed.size(); i++) {
        try {
          sources.add(SessionIdSource.from(listed.get(i)));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("sources[" + i + "]: " + e.getMessage(), e);
        }
      }
      if (sources.isEmpty()) {
        sources.add(SessionIdSource.header(DEFAULT_SESSION_ID_HEADER));
      }
      double ttl = seconds(p, "evictionTtlSeconds", DEFAULT_EVICTION_TTL_SECONDS);
      double sweep = seconds(p, "evictionSweepSeconds", DEFAULT_EVICTION_SWEEP_SECONDS);
      SessionBindings bindings = new SessionBindings(nanos(ttl), nanos(sweep), nanoClock);
      return new SessionAffinity(sources, bindings, profileName, pluginKey + ".boundWasCandidate");
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("sessionIdConfig: " + e.getMessage(), e);
    }
  }

  /** A positive number of seconds; 0 or absent takes the default, as in llm-d. */
  private static double seconds(PluginParameters p, String field, double fallback) {
    double v = p.doubleValue(field, fallback);
    if (v == 0) {
      return fallback;
    }
    if (!(v > 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(field + " must be > 0, got " + v);
    }
    return v;
  }

  /** Seconds as nanoseconds, at most about 73 years so that clock arithmetic cannot overflow. */
  private static long nanos(double seconds) {
    return (long) Math.min(seconds * 1e9, Long.MAX_VALUE / 4.0);
  }

  private static PluginParameters nested(PluginParameters p, String field, String... known) {
    PluginParameters n = p.object(field);
    try {
      n.requireOnly(known);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(field + ": " + e.getMessage(), e);
    }
    return n;
  }

  /** Lower case and trimmed, as request headers are; the default when blank. */
  static String normalizeHeader(String name) {
    String h = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    return h.isEmpty() ? DEFAULT_TOKEN_HEADER : h;
  }

  /** The candidate the request's session is pinned to, or {@code null} for no preference. */
  Candidate choose(InferenceRequest request, List<Candidate> candidates) {
    if (candidates.isEmpty()) {
      return null;
    }
    if (bindings == null) {
      String id = decode(request.header(tokenHeader));
      return id == null ? null : find(candidates, id);
    }
    String sessionId = sessionId(request);
    EndpointId bound = sessionId.isEmpty() ? null : bindings.bound(sessionId);
    if (bound == null) {
      return null;
    }
    Candidate target = find(candidates, bound.toString());
    request.attribute(presenceKey, target != null);
    return target;
  }

  /** {@code session_id}: remembers where the request went. */
  void preRequest(InferenceRequest request, SchedulingResult result) {
    if (bindings == null) {
      return;
    }
    String sessionId = sessionId(request);
    EndpointId picked = picked(result);
    if (!sessionId.isEmpty() && picked != null) {
      bindings.record(sessionId, picked, request.attribute(presenceKey));
    }
  }

  /** {@code encoded_endpoint_header}: tells the client where its session went. */
  void responseReceived(InferenceRequest request, SchedulingResult result, EndpointState servedBy) {
    if (bindings != null) {
      return;
    }
    EndpointId endpoint = profileName.isEmpty() && servedBy != null ? servedBy.id() : picked(result);
    if (endpoint != null) {
      request.setResponseHeader(tokenHeader, encode(endpoint));
    }
  }

  static String encode(EndpointId endpoint) {
    return Base64.getEncoder().encodeToString(endpoint.toString().getBytes(StandardCharsets.UTF_8));
  }

  /** The endpoint a token names, or {@code null} when absent or not base64. */
  static String decode(String token) {
    if (token == null || token.isEmpty()) {
      return null;
    }
    try {
      return new String(Base64.getDecoder().decode(token), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** The first source's non-empty identifier; empty when none. */
  private String sessionId(InferenceRequest request) {
    for (SessionIdSource s : sources) {
      String id = s.read(request);
      if (!id.isEmpty()) {
        return id;
      }
    }
    return "";
  }

  /** The first target of this instance's profile (the primary one by default), or {@code null}. */
  private EndpointId picked(SchedulingResult result) {
    if (result == null) {
      return null;
    }
    ProfileRunResult r = profileName.isEmpty() ? result.primary() : result.profileResults().get(profileName);
    return r == null || r.targets().isEmpty() ? null : r.targets().get(0).endpoint().id();
  }

  private static Candidate find(List<Candidate> candidates, String endpointId) {
    for (Candidate c : candidates) {
      if (c.endpoint().id().toString().equals(endpointId)) {
        return c;
      }
    }
    return null;
  }
}
