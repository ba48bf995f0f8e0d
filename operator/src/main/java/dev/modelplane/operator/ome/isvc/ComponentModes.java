package dev.modelplane.operator.ome.isvc;

import dev.modelplane.api.ome.v1beta1.ComponentExtensionSpec;
import dev.modelplane.api.ome.v1beta1.InferenceService;
import dev.modelplane.api.ome.v1beta1.MultiNodeComponentSpec;
import java.util.Map;
import java.util.Optional;

/**
 * How each component is deployed, decided as OME decides it. The InferenceService's annotation
 * {@code ome.io/deploymentMode: VirtualDeployment} deploys nothing. Per component: the engine's own annotation wins
 * (it may say MultiNodeRayVLLM); an engine or decoder with a leader or worker is MultiNode; an engine or router
 * with {@code minReplicas: 0} is Serverless (a decoder never is, and a decoder makes a serverless engine a raw
 * Deployment, as prefill and decode must both stay up); else RawDeployment.
 */
final class ComponentModes {
  /** The deployment modes OME writes in {@code ome.io/deploymentMode}. */
  enum Mode {
    RAW("RawDeployment"), MULTI_NODE("MultiNode"), MULTI_NODE_RAY_VLLM("MultiNodeRayVLLM"), SERVERLESS("Serverless"),
    VIRTUAL("VirtualDeployment");

    private final String value;

    Mode(String value) {
      this.value = value;
    }

    String value() {
      return value;
    }

    /** Whether pods of this mode run as LeaderWorkerSet groups. */
    boolean multiNode() {
      return this == MULTI_NODE || this == MULTI_NODE_RAY_VLLM;
    }

    /** The mode an annotation value names; empty for anything else, including OME's PDDisaggregated marker. */
    static Optional<Mode> of(String value) {
      for (Mode m : values()) {
        if (m.value.equals(value)) {
          return Optional.of(m);
        }
      }
      return Optional.empty();
    }
  }

  private ComponentModes() {
  }

  /** The service-level mode: the annotation when valid, else RawDeployment. */
  static Mode service(InferenceService isvc) {
    return Mode.of(annotation(isvc.getMetadata().getAnnotations())).orElse(Mode.RAW);
  }

  static Mode engine(ComponentExtensionSpec engine, boolean hasDecoder) {
    Optional<Mode> own = Mode.of(annotation(engine.getAnnotations()));
    if (own.isPresent() && own.get() != Mode.VIRTUAL) {
      return own.get() == Mode.SERVERLESS && hasDecoder ? Mode.RAW : own.get();
    }
    if (engine instanceof MultiNodeComponentSpec m && (m.getLeader() != null || m.getWorker() != null)) {
      return Mode.MULTI_NODE;
    }
    if (Integer.valueOf(0).equals(engine.getMinReplicas()) && !hasDecoder) {
      return Mode.SERVERLESS;
    }
    return Mode.RAW;
  }

  static Mode decoder(ComponentExtensionSpec decoder) {
    if (decoder instanceof MultiNodeComponentSpec m && (m.getLeader() != null || m.getWorker() != null)) {
      return Mode.MULTI_NODE;
    }
    return Mode.RAW;
  }

  static Mode router(ComponentExtensionSpec router) {
    return Integer.valueOf(0).equals(router.getMinReplicas()) ? Mode.SERVERLESS : Mode.RAW;
  }

  private static String annotation(Map<String, String> annotations) {
    return annotations == null ? null : annotations.get(OmeLabels.DEPLOYMENT_MODE);
  }
}
