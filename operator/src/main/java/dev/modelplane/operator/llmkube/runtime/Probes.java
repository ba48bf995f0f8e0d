package dev.modelplane.operator.llmkube.runtime;

import dev.modelplane.api.llmkube.v1alpha1.ProbeOverrides;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;

/**
 * The three probes of a model-server container. Timings are LLMKube's for every runtime: start-up every 10 s for up
 * to 30 minutes (180 failures, for large model loads), liveness every 15 s, readiness every 10 s; 5 s timeouts and no
 * initial delay.
 */
public record Probes(Probe startup, Probe liveness, Probe readiness) {

  /** HTTP GET probes on {@code path}. */
  public static Probes http(String path, int port) {
    return http(path, path, port);
  }

  /** HTTP GET probes: {@code readyPath} for start-up and readiness, {@code livePath} for liveness. */
  public static Probes http(String readyPath, String livePath, int port) {
    return new Probes(
        timings(new ProbeBuilder().withNewHttpGet().withPath(readyPath).withPort(new IntOrString(port)).endHttpGet(),
            10, 180),
        timings(new ProbeBuilder().withNewHttpGet().withPath(livePath).withPort(new IntOrString(port)).endHttpGet(),
            15, 3),
        timings(new ProbeBuilder().withNewHttpGet().withPath(readyPath).withPort(new IntOrString(port)).endHttpGet(),
            10, 3));
  }

  /** TCP connect probes, for servers without an HTTP health endpoint. */
  public static Probes tcp(int port) {
    return new Probes(
        timings(new ProbeBuilder().withNewTcpSocket().withPort(new IntOrString(port)).endTcpSocket(), 10, 180),
        timings(new ProbeBuilder().withNewTcpSocket().withPort(new IntOrString(port)).endTcpSocket(), 15, 3),
        timings(new ProbeBuilder().withNewTcpSocket().withPort(new IntOrString(port)).endTcpSocket(), 10, 3));
  }

  /** These probes with each probe the user gave in {@code probeOverrides} replacing the default whole. */
  public Probes overriddenBy(ProbeOverrides overrides) {
    if (overrides == null) {
      return this;
    }
    return new Probes(
        overrides.startup() != null ? overrides.startup() : startup,
        overrides.liveness() != null ? overrides.liveness() : liveness,
        overrides.readiness() != null ? overrides.readiness() : readiness);
  }

  private static Probe timings(ProbeBuilder builder, int period, int failureThreshold) {
    return builder.withPeriodSeconds(period).withTimeoutSeconds(5).withFailureThreshold(failureThreshold).build();
  }
}
