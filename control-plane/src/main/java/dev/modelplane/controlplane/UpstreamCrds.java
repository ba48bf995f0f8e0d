package dev.modelplane.controlplane;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * CRDs of optional projects whose objects modelplane creates, taken from each project's own Go module at a pinned
 * version by {@code hack/control-plane/upstream-crds.sh} (downloaded once into the cache). Tests install a set into
 * the shared control plane with {@link KubeTest#installUpstreamCrds}, which removes it again after the test, so
 * tests that need the kind absent see it absent.
 */
public enum UpstreamCrds {
  /** LeaderWorkerSet (sigs.k8s.io/lws v0.7.0): multi-node serving. */
  LEADER_WORKER_SET("lws"),
  /** Knative Serving (knative.dev/serving v0.51.0): Service, Configuration, Revision, Route. */
  KNATIVE_SERVING("knative-serving"),
  /** KEDA (github.com/kedacore/keda/v2 v2.21.0): ScaledObject, TriggerAuthentication. */
  KEDA("keda"),
  /** Gateway API, standard channel (sigs.k8s.io/gateway-api v1.6.3): GatewayClass, Gateway, HTTPRoute,
   * ReferenceGrant. */
  GATEWAY_API("gateway-api"),
  /** Istio's CRDs (istio.io/api v1.29.1), DestinationRule among them. */
  ISTIO("istio"),
  /** Prometheus Operator (github.com/prometheus-operator/prometheus-operator v0.90.1): PodMonitor, ServiceMonitor. */
  PROMETHEUS_OPERATOR("prometheus-operator");

  private final String set;

  UpstreamCrds(String set) {
    this.set = set;
  }

  /** The CRD files of this set, fetched first when they are not cached yet. */
  public List<Path> files() throws IOException {
    Path script = ControlPlaneBinaries.repoScript("hack/control-plane/upstream-crds.sh")
        .orElseThrow(() -> new IOException("hack/control-plane/upstream-crds.sh is not reachable from here"));
    try {
      Process process = new ProcessBuilder(script.toString(), set)
          .redirectError(ProcessBuilder.Redirect.INHERIT).start();
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0 || out.isEmpty()) {
        throw new IOException("hack/control-plane/upstream-crds.sh " + set + " failed; run it by hand to see why");
      }
      Path dir = Path.of(out.substring(out.lastIndexOf('\n') + 1));
      try (Stream<Path> files = Files.list(dir)) {
        return files.filter(f -> f.getFileName().toString().endsWith(".yaml")).sorted().toList();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while fetching " + set, e);
    }
  }
}
