package dev.modelplane.operator.app;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.llmkube.isvc.IsvcObjects;
import dev.modelplane.operator.llmkube.isvc.ServingPlan;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the InferenceService builders and the JSON round trip of what they build a few times before the controllers
 * start, without touching the cluster. A fresh JVM otherwise pays class loading, Jackson's serializer set-up and
 * interpretation on the first services it reconciles — hundreds of milliseconds each on a small node, which is what a
 * user applying their first manifest waits for.
 */
final class StartupWarmup {
  private static final Logger LOG = LoggerFactory.getLogger(StartupWarmup.class);
  private static final int ROUNDS = 1000;

  private StartupWarmup() {
  }

  static void run(OperatorSettings settings, KubernetesSerialization json) {
    long start = System.nanoTime();
    InferenceService isvc = json.unmarshal("""
        {"apiVersion": "inference.llmkube.dev/v1alpha1", "kind": "InferenceService",
         "metadata": {"name": "warmup", "namespace": "warmup", "generation": 1},
         "spec": {"modelRef": "warmup", "contextSize": 4096, "resources": {"cpu": "1", "memory": "1Gi"}}}
        """, InferenceService.class);
    Model model = json.unmarshal("""
        {"apiVersion": "inference.llmkube.dev/v1alpha1", "kind": "Model",
         "metadata": {"name": "warmup", "namespace": "warmup", "generation": 1},
         "spec": {"source": "warmup-org/warmup-gguf"}}
        """, Model.class);
    int objects = 0;
    for (int i = 0; i < ROUNDS; i++) {
      for (HasMetadata object : IsvcObjects.build(ServingPlan.of(isvc, model, settings), null).all()) {
        json.unmarshal(json.asJson(object), object.getClass());
        objects++;
      }
    }
    LOG.info("event=warmup objects={} ms={}", objects, (System.nanoTime() - start) / 1_000_000);
  }
}
