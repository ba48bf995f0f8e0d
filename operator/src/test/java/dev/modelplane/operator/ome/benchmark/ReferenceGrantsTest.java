package dev.modelplane.operator.ome.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Cross-namespace targets: allowed only by a ReferenceGrant in the target's namespace that names the benchmark's. */
class ReferenceGrantsTest {
  private static final ReferenceGrants.Target LLAMA = new ReferenceGrants.Target("ome.io", "InferenceService",
      "serving", "llama");

  private static GenericKubernetesResource grant(String spec) {
    return Serialization.unmarshal("""
        apiVersion: gateway.networking.k8s.io/v1beta1
        kind: ReferenceGrant
        metadata: {name: bench, namespace: serving}
        spec:
        """ + spec.stripIndent().lines().map(l -> "  " + l + "\n").reduce("", String::concat),
        GenericKubernetesResource.class);
  }

  private static final GenericKubernetesResource BENCH_TO_LLAMA = grant("""
      from: [{group: ome.io, kind: BenchmarkJob, namespace: bench}]
      to: [{group: ome.io, kind: InferenceService, name: llama}]
      """);

  @Test
  void theSameNamespaceNeedsNoGrantAndNothingIsRead() {
    assertThat(ReferenceGrants.refusal(ns -> {
      throw new AssertionError("no grant is read for the benchmark's own namespace");
    }, "serving", LLAMA)).isNull();
  }

  @Test
  void aGrantFromTheBenchmarksNamespaceToTheTargetAllowsIt() {
    assertThat(ReferenceGrants.refusal(ns -> List.of(BENCH_TO_LLAMA), "bench", LLAMA)).isNull();
    GenericKubernetesResource everyService = grant("""
        from: [{group: ome.io, kind: BenchmarkJob, namespace: bench}]
        to: [{group: ome.io, kind: InferenceService}]
        """);
    assertThat(ReferenceGrants.grants(everyService, "bench", LLAMA)).as("no name: every InferenceService").isTrue();
  }

  @Test
  void aGrantForAnotherNamespaceKindOrNameDoesNot() {
    assertThat(ReferenceGrants.grants(BENCH_TO_LLAMA, "other", LLAMA)).isFalse();
    assertThat(ReferenceGrants.grants(BENCH_TO_LLAMA, "bench",
        new ReferenceGrants.Target("ome.io", "InferenceService", "serving", "mistral"))).isFalse();
    assertThat(ReferenceGrants.grants(BENCH_TO_LLAMA, "bench",
        new ReferenceGrants.Target("inference.llmkube.dev", "InferenceService", "serving", "llama"))).isFalse();
    assertThat(ReferenceGrants.grants(grant("""
        from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: bench}]
        to: [{group: ome.io, kind: InferenceService, name: llama}]
        """), "bench", LLAMA)).as("a grant to routes is not one to benchmarks").isFalse();
    assertThat(ReferenceGrants.grants(BENCH_TO_LLAMA, "bench",
        new ReferenceGrants.Target("ome.io", "InferenceService", "elsewhere", "llama")))
        .as("a grant only speaks for its own namespace").isFalse();
  }

  @Test
  void withoutAMatchingGrantTheRefusalSaysWhichGrantWouldAllowIt() {
    assertThat(ReferenceGrants.refusal(ns -> List.of(), "bench", LLAMA)).isEqualTo("InferenceService serving/llama "
        + "(ome.io) is in another namespace than this BenchmarkJob (bench), and no ReferenceGrant in serving allows "
        + "it: one there with from [{group: ome.io, kind: BenchmarkJob, namespace: bench}] and to [{group: ome.io, "
        + "kind: InferenceService, name: llama}] would");
    assertThat(ReferenceGrants.refusal(ns -> List.of(BENCH_TO_LLAMA), "other", LLAMA)).isNotNull();
  }

  @Test
  void withoutTheCrdOrTheRightToReadGrantsEveryOtherNamespaceIsRefused() {
    assertThat(ReferenceGrants.refusal(ns -> null, "bench", LLAMA)).isEqualTo("InferenceService serving/llama "
        + "(ome.io) is in another namespace than this BenchmarkJob (bench): that needs a ReferenceGrant "
        + "(gateway.networking.k8s.io/v1beta1) in serving, and the ReferenceGrant CRD is not installed");
    assertThat(ReferenceGrants.refusal(ns -> {
      throw new KubernetesClientException("forbidden", 403, null);
    }, "bench", LLAMA)).endsWith("and the operator cannot read the ReferenceGrants of serving (HTTP 403)");
  }
}
