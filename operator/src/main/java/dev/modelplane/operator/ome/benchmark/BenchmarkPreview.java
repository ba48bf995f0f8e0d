package dev.modelplane.operator.ome.benchmark;

import dev.modelplane.api.ome.v1beta1.BenchmarkJob;
import dev.modelplane.api.ome.v1beta1.EndpointSpec;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.WorkloadPolicy;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.List;

/**
 * What {@code modelplane render} shows for a BenchmarkJob without a cluster: the exact Job for an endpoint given by
 * URL with its model name, else a line saying what the operator reads from the cluster before it can make the Job.
 */
public final class BenchmarkPreview {
  private BenchmarkPreview() {
  }

  /**
   * The preview.
   *
   * @param job the Job, or null when there is none to show
   * @param message one line for the user: what was made, why nothing was, or what is wrong
   * @param error whether the BenchmarkJob cannot run as written
   */
  public record Preview(Job job, String message, boolean error) {
  }

  /** The preview of {@code benchmark}, whose namespace is set. */
  public static Preview preview(BenchmarkJob benchmark, OperatorSettings settings) {
    EndpointSpec endpoint = benchmark.getSpec() == null ? null : benchmark.getSpec().endpoint();
    if (endpoint == null) {
      return new Preview(null, "spec.endpoint: is required", true);
    }
    String ns = benchmark.getMetadata().getNamespace();
    if (endpoint.endpoint() == null) {
      String what = endpoint.inferencePool() != null
          ? "InferencePool " + orElse(endpoint.inferencePool().namespace(), ns) + "/" + endpoint.inferencePool().name()
          : "InferenceService " + orElse(endpoint.inferenceService().namespace(), ns) + "/"
              + endpoint.inferenceService().name();
      return new Preview(null, "no Job shown: the operator makes it on the cluster once " + what
          + " serves (its URL and model name come from the cluster, which render does not read)", false);
    }
    BenchmarkTarget target = EndpointResolver.url(endpoint.endpoint()).target();
    if (target.modelName() == null) {
      return new Preview(null, "no Job shown: spec.endpoint.endpoint.modelName is unset, so the operator asks "
          + target.apiBase() + "/v1/models for the model when the benchmark starts", false);
    }
    Job job;
    try {
      job = BenchmarkJobBuilder.build(benchmark, target, settings);
    } catch (BenchmarkConfigException e) {
      return new Preview(null, e.getMessage(), true);
    }
    job.getMetadata().setOwnerReferences(null); // no uid without a cluster; the operator sets the owner
    List<WorkloadPolicy.Violation> refused = BenchmarkPolicy.violations(benchmark, target, job);
    if (!refused.isEmpty()) {
      return new Preview(job, "refused in a namespace without the workload-policy exemption: "
          + WorkloadPolicy.describe(refused), false);
    }
    return new Preview(job, "Job " + job.getMetadata().getName() + " runs genai-bench against " + target.apiBase()
        + " (model " + target.modelName() + ")", false);
  }

  private static String orElse(String value, String fallback) {
    return value == null || value.isBlank() ? fallback : value;
  }
}
