package dev.modelplane.router.request;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which requests the router forwards to a model server at all, checked on the request line before any body byte, in
 * both front ends. A model server serves more than inference: vLLM also answers {@code /sleep}, {@code /wake_up},
 * {@code /collective_rpc}, {@code /reset_prefix_cache}, {@code /v1/load_lora_adapter}, {@code /metrics},
 * {@code /server_info}, profiling and weight-update endpoints, which no tenant of a gateway may reach. So the rule
 * is an allow-list:
 * <ul>
 *   <li>methods {@code GET}, {@code HEAD}, {@code POST}, {@code DELETE} and {@code OPTIONS} (what the OpenAI and
 *       Anthropic APIs and a CORS preflight use); {@code TRACE}, {@code CONNECT}, {@code PUT}, {@code PATCH} and any
 *       other are refused;</li>
 *   <li>paths under {@code /v1/}, and the inference paths vLLM serves outside it ({@link #INFERENCE_PATHS}), plus the
 *       prefixes an operator adds ({@link #withAllowed});</li>
 *   <li>minus {@link #DENIED}: the LoRA adapter load and unload endpoints, which sit under {@code /v1/} yet change
 *       what the server serves. They stay refused whatever prefix is added.</li>
 * </ul>
 * A refused request is a 404, as if the route did not exist. The path checked is the {@link #normalize normalized}
 * one, which is also the one parsers are chosen by and the one forwarded, so that neither percent-encoding nor dot
 * segments can make the model server see a path other than the one checked.
 */
public final class PathPolicy {
  /** Methods forwarded. */
  public static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "DELETE", "OPTIONS");
  /** Inference paths outside {@code /v1/} that vLLM serves, allowed with what lies under them. */
  public static final List<String> INFERENCE_PATHS = List.of("/tokenize", "/detokenize", "/rerank", "/v2/rerank",
      "/score", "/pooling", "/classify", "/inference/v1/generate");
  /** Paths under an allowed prefix that are never forwarded (compared without case, with what lies under them). */
  public static final List<String> DENIED = List.of("/v1/load_lora_adapter", "/v1/unload_lora_adapter");

  /**
   * Administrative paths of the model servers modelplane deploys (vLLM, SGLang, llama.cpp), refused on a Gateway
   * listener too, whatever an HTTPRoute matches ({@link #checkRouted}); compared without case, with what lies under
   * them.
   */
  public static final List<String> ADMIN_PATHS = List.of("/sleep", "/wake_up", "/is_sleeping", "/collective_rpc",
      "/reset_prefix_cache", "/reset_mm_cache", "/metrics", "/server_info", "/get_server_info", "/start_profile",
      "/stop_profile", "/pause", "/resume", "/scale_elastic_ep", "/is_scaling_elastic_ep", "/update_weights",
      "/update_weights_from_disk", "/update_weights_from_distributed", "/update_weights_from_tensor",
      "/init_weights_update_group", "/flush_cache", "/release_memory_occupation", "/resume_memory_occupation",
      "/load_lora_adapter", "/unload_lora_adapter", "/configure_logging", "/set_internal_state",
      "/start_expert_distribution_record", "/stop_expert_distribution_record", "/dump_expert_distribution_record",
      "/slots", "/lora-adapters", "/props", "/abort_request");

  private static final PathPolicy DEFAULT = new PathPolicy(concat(List.of("/v1/"), INFERENCE_PATHS));
  private static final String UNRESERVED_PUNCTUATION = "-._~";

  private final List<String> allowed;

  private PathPolicy(List<String> allowed) {
    this.allowed = List.copyOf(allowed);
  }

  /** {@code /v1/} and {@link #INFERENCE_PATHS}. */
  public static PathPolicy defaults() {
    return DEFAULT;
  }

  /**
   * This policy with {@code prefixes} allowed too (a native generate endpoint, another API version). A prefix ending
   * with {@code /} allows what lies under it; one without also allows that path itself.
   *
   * @throws IllegalArgumentException for a prefix that does not start with {@code /}, or is not in normal form (a
   *     query, percent-encoding, a dot segment, an empty segment)
   */
  public PathPolicy withAllowed(List<String> prefixes) {
    List<String> all = new ArrayList<>(allowed);
    for (String p : prefixes) {
      String normal;
      try {
        normal = p.startsWith("/") && p.indexOf('?') < 0 && p.indexOf('%') < 0 && !p.contains("//")
            ? normalize(p) : null;
      } catch (RouterException e) {
        normal = null;
      }
      if (normal == null || !normal.equals(p)) {
        throw new IllegalArgumentException("allowed path prefix '" + p + "' must be an absolute path in normal "
            + "form (starting with '/', no query, percent-encoding, '.' or '..' segments or '//')");
      }
      all.add(p);
    }
    return new PathPolicy(all);
  }

  /** The allowed prefixes, in order. */
  public List<String> allowed() {
    return allowed;
  }

  /**
   * Refuses a request this policy does not forward. The path is matched with its empty segments merged
   * ({@code //sleep} is {@code /sleep}), as some servers route it.
   *
   * @param path a {@link #normalize normalized} path, without its query
   * @throws RouterException 404 for a method or path not forwarded; 400 for a path with an encoded slash or
   *     backslash ({@code %2F}, {@code %5C}), which servers disagree on
   */
  public void check(String method, String path) {
    checkMethod(method, path);
    if (path.contains("%2F") || path.contains("%5C")) {
      throw malformed(path, "an encoded slash or backslash");
    }
    String merged = path.replaceAll("/{2,}", "/");
    String lower = trimSlashes(merged).toLowerCase(Locale.ROOT);
    boolean denied = DENIED.stream().anyMatch(d -> lower.equals(d) || lower.startsWith(d + "/"));
    boolean allowedPath = allowed.stream().anyMatch(a -> a.endsWith("/") ? merged.startsWith(a)
        : merged.equals(a) || merged.startsWith(a + "/"));
    if (denied || !allowedPath) {
      throw new RouterException(ErrorCode.NOT_FOUND, "unsupported route " + (method == null ? "" : method + " ")
          + shown(path));
    }
  }

  /**
   * The rule on a Gateway listener, where the HTTPRoutes say which paths reach which pool: the methods and the
   * encoded-slash rule of {@link #check}, and no path of {@link #DENIED} or {@link #ADMIN_PATHS}, which no route can
   * open to clients; any other path is the routes' business (one they do not match is a 404 there).
   *
   * @param path a {@link #normalize normalized} path, without its query
   * @throws RouterException 404 for a method or an administrative path, 400 for an encoded slash or backslash
   */
  public static void checkRouted(String method, String path) {
    checkMethod(method, path);
    if (path.contains("%2F") || path.contains("%5C")) {
      throw malformed(path, "an encoded slash or backslash");
    }
    String lower = trimSlashes(path.replaceAll("/{2,}", "/")).toLowerCase(Locale.ROOT);
    boolean admin = java.util.stream.Stream.concat(DENIED.stream(), ADMIN_PATHS.stream())
        .anyMatch(d -> lower.equals(d) || lower.startsWith(d + "/"));
    if (admin) {
      throw new RouterException(ErrorCode.NOT_FOUND, "unsupported route " + (method == null ? "" : method + " ")
          + shown(path));
    }
  }

  /**
   * Refuses a method this policy does not forward, whatever the request target ({@code CONNECT} names a host, not a
   * path): checked before the target is read.
   *
   * @param method the request's method; null or empty for none known (every method passes)
   * @param target the request target, for the message
   * @throws RouterException 404 for a method not forwarded
   */
  public static void checkMethod(String method, String target) {
    if (method != null && !method.isEmpty() && !METHODS.contains(method)) {
      throw new RouterException(ErrorCode.NOT_FOUND, "unsupported route " + method + " " + shown(target));
    }
  }

  /**
   * The normal form of a request path (without its query), as RFC 3986 defines it and model servers route by:
   * percent-encoded unreserved characters decoded ({@code %63} is {@code c}), other escapes' hex upper-cased and
   * dot segments resolved ({@code /v1/../sleep} is {@code /sleep}, {@code /v1/%2e%2e/sleep} too).
   *
   * @throws RouterException 400 for a path that does not start with {@code /}, a malformed escape or a backslash
   */
  public static String normalize(String path) {
    if (path == null || !path.startsWith("/")) {
      throw new RouterException(ErrorCode.BAD_REQUEST, "request target must be an absolute path");
    }
    StringBuilder decoded = new StringBuilder(path.length());
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c == '\\') {
        throw malformed(path, "a backslash");
      }
      if (c != '%') {
        decoded.append(c);
        continue;
      }
      int hi = i + 2 < path.length() ? Character.digit(path.charAt(i + 1), 16) : -1;
      int lo = hi < 0 ? -1 : Character.digit(path.charAt(i + 2), 16);
      if (lo < 0) {
        throw malformed(path, "a malformed percent-escape");
      }
      char d = (char) (hi * 16 + lo);
      if (d < 0x80 && (Character.isLetterOrDigit(d) || UNRESERVED_PUNCTUATION.indexOf(d) >= 0)) {
        decoded.append(d);
      } else {
        decoded.append('%').append(path.substring(i + 1, i + 3).toUpperCase(Locale.ROOT));
      }
      i += 2;
    }
    return removeDotSegments(decoded.toString());
  }

  /** Resolves {@code .} and {@code ..} segments (never above the root); a path ending with one ends with a slash. */
  private static String removeDotSegments(String path) {
    List<String> out = new ArrayList<>();
    String[] segments = path.substring(1).split("/", -1);
    boolean directory = false;
    for (String s : segments) {
      directory = s.equals(".") || s.equals("..");
      if (s.equals("..")) {
        if (!out.isEmpty()) {
          out.remove(out.size() - 1);
        }
      } else if (!s.equals(".")) {
        out.add(s);
      }
    }
    if (out.isEmpty()) {
      return "/";
    }
    String joined = "/" + String.join("/", out);
    return directory ? joined + "/" : joined;
  }

  private static RouterException malformed(String path, String what) {
    return new RouterException(ErrorCode.BAD_REQUEST, "request path " + shown(path) + " has " + what);
  }

  private static String trimSlashes(String path) {
    String p = path;
    while (p.length() > 1 && p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    return p;
  }

  private static String shown(String path) {
    return path.length() <= 200 ? path : path.substring(0, 200) + "...";
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
