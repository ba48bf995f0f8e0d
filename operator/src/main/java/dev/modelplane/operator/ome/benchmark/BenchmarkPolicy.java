package dev.modelplane.operator.ome.benchmark;

import dev.modelplane.api.ome.v1beta1.BenchmarkJob;
import dev.modelplane.operator.common.WorkloadPolicy;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.List;
import java.util.Set;

/**
 * The {@link WorkloadPolicy} applied to a BenchmarkJob's Job as it would be created: {@code podOverride.volumes}
 * and a {@code local://} dataset are the user's hostPath volumes, refused unless the namespace lifts the policy; the
 * target model's directory, mounted read-only for the tokenizer, is the operator's own (it comes from the target's
 * base model, not from the BenchmarkJob).
 */
final class BenchmarkPolicy {
  private BenchmarkPolicy() {
  }

  /** The violations of the Job, whatever the namespace. */
  static List<WorkloadPolicy.Violation> violations(BenchmarkJob benchmark, BenchmarkTarget target, Job job) {
    Set<WorkloadPolicy.OperatorHostPath> ours = target.tokenizer() == null ? Set.of()
        : Set.of(new WorkloadPolicy.OperatorHostPath(BenchmarkJobBuilder.TOKENIZER_VOLUME, target.tokenizer().path()));
    var override = benchmark.getSpec().podOverride();
    List<String> overridden = override == null || override.volumes() == null ? List.of()
        : override.volumes().stream().map(Volume::getName).toList();
    String container = "spec.initContainers[" + BenchmarkJobBuilder.BENCHMARK_CONTAINER + "]";
    return WorkloadPolicy.pod(job.getSpec().getTemplate(), p -> {
      if (p.startsWith("spec.volumes[")) {
        String name = p.substring("spec.volumes[".length(), p.indexOf(']'));
        return overridden.contains(name) ? "spec.podOverride.volumes[" + name + "]"
            : name.equals("dataset") ? "spec.dataset.storageUri" : "Job pod " + p;
      }
      if (p.startsWith(container + ".volumeMounts")) {
        return "spec.podOverride.volumeMounts" + p.substring((container + ".volumeMounts").length());
      }
      return "Job pod " + p;
    }, ours);
  }
}
