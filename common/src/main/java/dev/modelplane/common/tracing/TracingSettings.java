package dev.modelplane.common.tracing;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * How a process exports traces, read from the standard {@code OTEL_*} environment variables (the ones GIE's endpoint
 * picker and vLLM read): {@code OTEL_SERVICE_NAME}, {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT} (used as is) or
 * {@code OTEL_EXPORTER_OTLP_ENDPOINT} (with {@code /v1/traces} appended for OTLP/HTTP, as is for gRPC),
 * {@code OTEL_EXPORTER_OTLP_TRACES_PROTOCOL} or {@code OTEL_EXPORTER_OTLP_PROTOCOL} ({@code http/protobuf}, the
 * default, or {@code grpc}), {@code OTEL_TRACES_SAMPLER} and {@code OTEL_TRACES_SAMPLER_ARG}, {@code OTEL_RESOURCE_ATTRIBUTES} and
 * {@code OTEL_TRACES_EXPORTER} ({@code otlp}, {@code console} or {@code none}).
 *
 * @param enabled whether traces are made at all; when false the process uses the no-op OpenTelemetry
 * @param serviceName the {@code service.name} resource attribute
 * @param exporter where spans go
 * @param protocol the OTLP transport (for {@link Exporter#OTLP})
 * @param tracesEndpoint the full OTLP/HTTP traces URL, or the OTLP/gRPC collector's URL (for {@link Exporter#OTLP})
 * @param sampler the sampler's standard name
 * @param ratio the sampling ratio of the {@code traceidratio} samplers, in [0, 1]
 * @param resourceAttributes further resource attributes
 */
public record TracingSettings(boolean enabled, String serviceName, Exporter exporter, Protocol protocol,
    URI tracesEndpoint,
    String sampler, double ratio, Map<String, String> resourceAttributes) {

  /** Where spans are exported. */
  public enum Exporter { OTLP, CONSOLE, NONE }

  /**
   * The OTLP transport. OTLP/HTTP is the default, as the OpenTelemetry specification recommends; gRPC is what GIE's
   * endpoint picker and vLLM send by default, to port 4317.
   */
  public enum Protocol {
    HTTP_PROTOBUF("http/protobuf", "http://localhost:4318"),
    GRPC("grpc", "http://localhost:4317");

    private final String envName;
    private final String defaultEndpoint;

    Protocol(String envName, String defaultEndpoint) {
      this.envName = envName;
      this.defaultEndpoint = defaultEndpoint;
    }

    /** The name {@code OTEL_EXPORTER_OTLP_PROTOCOL} gives it. */
    public String envName() {
      return envName;
    }

    /** The collector address used when no endpoint is set. */
    public String defaultEndpoint() {
      return defaultEndpoint;
    }
  }

  /** OTLP/HTTP's default collector address. */
  public static final String DEFAULT_ENDPOINT = Protocol.HTTP_PROTOBUF.defaultEndpoint();

  public TracingSettings {
    resourceAttributes = Map.copyOf(resourceAttributes);
  }

  /** Tracing off: nothing is sampled, nothing exported, no thread started. */
  public static TracingSettings off() {
    return new TracingSettings(false, "", Exporter.NONE, Protocol.HTTP_PROTOBUF, null, "always_off", 0,
        Map.of());
  }

  /**
   * The settings in {@code env}. {@code enabled} comes from the caller's flag ({@code --tracing},
   * {@code --otlp-traces-endpoint}); {@code endpointFlag}, when not null, wins over the environment's endpoint;
   * {@code defaultSampler}/{@code defaultRatio} apply when {@code OTEL_TRACES_SAMPLER}/{@code _ARG} are unset.
   *
   * @throws IllegalArgumentException naming the variable, for an unknown sampler or exporter, a ratio outside [0, 1],
   *     an endpoint that is not an http(s) URL, a protocol other than http/protobuf or grpc, or a malformed attribute
   *     list
   */
  public static TracingSettings fromEnv(Map<String, String> env, boolean enabled, String defaultServiceName,
      String endpointFlag, String defaultSampler, double defaultRatio) {
    if (!enabled) {
      return off();
    }
    String service = value(env, "OTEL_SERVICE_NAME", defaultServiceName);
    Exporter exporter = exporter(value(env, "OTEL_TRACES_EXPORTER", "otlp"));
    Protocol protocol = exporter == Exporter.OTLP ? protocol(env) : Protocol.HTTP_PROTOBUF;
    URI endpoint = endpoint(env, endpointFlag, protocol);
    String sampler = value(env, "OTEL_TRACES_SAMPLER", defaultSampler).toLowerCase(Locale.ROOT);
    if (!Samplers.NAMES.contains(sampler)) {
      throw new IllegalArgumentException("OTEL_TRACES_SAMPLER=" + sampler + ": unknown sampler; one of "
          + Samplers.NAMES);
    }
    double ratio = ratio(value(env, "OTEL_TRACES_SAMPLER_ARG", null), defaultRatio);
    return new TracingSettings(true, service, exporter, protocol, endpoint, sampler, ratio,
        attributes(value(env, "OTEL_RESOURCE_ATTRIBUTES", "")));
  }

  private static String value(Map<String, String> env, String name, String fallback) {
    String v = env.get(name);
    return v == null || v.isBlank() ? fallback : v.trim();
  }

  private static Exporter exporter(String name) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "otlp" -> Exporter.OTLP;
      case "console", "logging" -> Exporter.CONSOLE;
      case "none" -> Exporter.NONE;
      default -> throw new IllegalArgumentException("OTEL_TRACES_EXPORTER=" + name
          + ": unknown exporter; one of otlp, console, none");
    };
  }

  private static Protocol protocol(Map<String, String> env) {
    String variable = value(env, "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", null) != null
        ? "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL" : "OTEL_EXPORTER_OTLP_PROTOCOL";
    String name = value(env, variable, Protocol.HTTP_PROTOBUF.envName());
    for (Protocol p : Protocol.values()) {
      if (p.envName().equals(name)) {
        return p;
      }
    }
    throw new IllegalArgumentException(variable + "=" + name + ": unsupported protocol; one of http/protobuf"
        + " (OTLP over HTTP, usually port 4318) or grpc (usually port 4317)");
  }

  private static URI endpoint(Map<String, String> env, String flag, Protocol protocol) {
    String variable;
    String raw;
    boolean tracesPath;
    if (flag != null && !flag.isBlank()) {
      variable = "--otlp-traces-endpoint";
      raw = flag.trim();
      tracesPath = false;
    } else if (value(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", null) != null) {
      variable = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT";
      raw = value(env, variable, null);
      tracesPath = true;
    } else {
      variable = "OTEL_EXPORTER_OTLP_ENDPOINT";
      raw = value(env, variable, protocol.defaultEndpoint());
      tracesPath = false;
    }
    URI uri;
    try {
      uri = new URI(raw);
    } catch (java.net.URISyntaxException e) {
      throw new IllegalArgumentException(variable + "=" + raw + ": not a URL (" + e.getReason() + ")");
    }
    if (uri.getScheme() == null || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))
        || uri.getHost() == null) {
      throw new IllegalArgumentException(variable + "=" + raw + ": not an http:// or https:// URL with a host");
    }
    if (tracesPath || protocol == Protocol.GRPC) {
      // gRPC names the method itself: only the URL's scheme, host and port count.
      return uri;
    }
    String base = raw.endsWith("/") ? raw.substring(0, raw.length() - 1) : raw;
    return base.endsWith("/v1/traces") ? URI.create(base) : URI.create(base + "/v1/traces");
  }

  private static double ratio(String raw, double fallback) {
    if (raw == null) {
      return fallback;
    }
    double r;
    try {
      r = Double.parseDouble(raw);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("OTEL_TRACES_SAMPLER_ARG=" + raw + ": not a number");
    }
    if (!(r >= 0 && r <= 1)) {
      throw new IllegalArgumentException("OTEL_TRACES_SAMPLER_ARG=" + raw + ": the ratio must be within [0, 1]");
    }
    return r;
  }

  private static Map<String, String> attributes(String raw) {
    Map<String, String> out = new LinkedHashMap<>();
    if (raw.isEmpty()) {
      return out;
    }
    for (String pair : raw.split(",")) {
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("OTEL_RESOURCE_ATTRIBUTES: '" + pair + "' is not key=value");
      }
      out.put(pair.substring(0, eq).trim(), java.net.URLDecoder.decode(pair.substring(eq + 1).trim(),
          java.nio.charset.StandardCharsets.UTF_8));
    }
    return out;
  }
}
