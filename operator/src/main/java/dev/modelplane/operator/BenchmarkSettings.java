package dev.modelplane.operator;

import java.time.Duration;
import java.util.Objects;

/**
 * Operator-wide settings of OME BenchmarkJobs, the part of OME's {@code benchmarkjob-config} ConfigMap that applies
 * here, plus where modelplane's router is for InferencePool targets.
 *
 * @param image image of the genai-bench container ({@code --benchmark-image})
 * @param cpu CPU request and limit of the genai-bench container ({@code --benchmark-cpu})
 * @param memory memory request and limit of the genai-bench container ({@code --benchmark-memory})
 * @param routerUrl base URL of the router's OpenAI gateway, for InferencePool targets without a {@code routerUrl}
 *     ({@code --benchmark-router-url})
 * @param pendingRecheck how often a pending benchmark looks at its target again; at most a minute
 */
public record BenchmarkSettings(String image, String cpu, String memory, String routerUrl, Duration pendingRecheck) {
  /** OME's default genai-bench image. */
  public static final String DEFAULT_IMAGE = "ghcr.io/moirai-internal/genai-bench:0.1.113";
  public static final String DEFAULT_CPU = "2";
  public static final String DEFAULT_MEMORY = "2Gi";
  /** The router's in-cluster Service as the chart and the kustomize layout install it. */
  public static final String DEFAULT_ROUTER_URL = "http://modelplane-router.modelplane-system.svc:8080";
  public static final Duration DEFAULT_PENDING_RECHECK = Duration.ofSeconds(30);

  public BenchmarkSettings {
    image = Objects.requireNonNullElse(image, DEFAULT_IMAGE);
    cpu = Objects.requireNonNullElse(cpu, DEFAULT_CPU);
    memory = Objects.requireNonNullElse(memory, DEFAULT_MEMORY);
    routerUrl = stripSlash(Objects.requireNonNullElse(routerUrl, DEFAULT_ROUTER_URL));
    pendingRecheck = Objects.requireNonNullElse(pendingRecheck, DEFAULT_PENDING_RECHECK);
    if (!routerUrl.startsWith("http://") && !routerUrl.startsWith("https://")) {
      throw new IllegalArgumentException("the benchmark router URL must start with http:// or https://, got "
          + routerUrl);
    }
    if (pendingRecheck.isNegative() || pendingRecheck.isZero() || pendingRecheck.compareTo(Duration.ofMinutes(1)) > 0) {
      throw new IllegalArgumentException("the pending recheck interval must be between 1ms and 1m, got "
          + pendingRecheck);
    }
  }

  /** OME's image and resources, the router of the default installation. */
  public static BenchmarkSettings defaults() {
    return new BenchmarkSettings(null, null, null, null, null);
  }

  /** These settings with another recheck interval. */
  public BenchmarkSettings withPendingRecheck(Duration recheck) {
    return new BenchmarkSettings(image, cpu, memory, routerUrl, recheck);
  }

  private static String stripSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }
}
