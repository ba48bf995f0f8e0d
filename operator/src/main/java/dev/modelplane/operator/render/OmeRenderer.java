package dev.modelplane.operator.render;

import dev.modelplane.api.ome.v1beta1.BaseModel;
import dev.modelplane.api.ome.v1beta1.ClusterBaseModel;
import dev.modelplane.api.ome.v1beta1.ClusterServingRuntime;
import dev.modelplane.api.ome.v1beta1.FineTunedWeight;
import dev.modelplane.api.ome.v1beta1.InferenceService;
import dev.modelplane.api.ome.v1beta1.ServingRuntime;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.ome.isvc.OmeServingPreview;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The OME part of {@code modelplane render}: every OME InferenceService of the manifests, with its model, fine-tuned
 * weight and runtimes resolved from the same manifests, planned by the operator's own builders.
 */
final class OmeRenderer {
  private OmeRenderer() {
  }

  /**
   * Renders the OME InferenceServices among {@code manifests}.
   *
   * @param objects receives the objects
   * @param messages receives one line per service: the runtime chosen, or why it cannot be served
   * @return whether some service could not be rendered
   */
  static boolean render(List<HasMetadata> manifests, OperatorSettings settings, List<HasMetadata> objects,
      List<String> messages) {
    boolean failed = false;
    for (HasMetadata manifest : manifests) {
      if (!(manifest instanceof InferenceService isvc)) {
        continue;
      }
      String ns = isvc.getMetadata().getNamespace();
      String who = "InferenceService " + ns + "/" + isvc.getMetadata().getName() + " (ome.io)";
      OmeServingPreview.Preview preview = OmeServingPreview.preview(isvc,
          name -> find(manifests, BaseModel.class, ns, name), name -> find(manifests, ClusterBaseModel.class, null,
              name), name -> find(manifests, FineTunedWeight.class, null, name),
          all(manifests, ServingRuntime.class).stream().filter(r -> ns.equals(r.getMetadata().getNamespace()))
              .toList(), all(manifests, ClusterServingRuntime.class), settings);
      if (preview.error() != null) {
        messages.add(who + ": error: " + preview.error());
        failed = true;
      } else {
        messages.add(who + ": runtime: " + preview.runtime());
        objects.addAll(preview.objects());
      }
    }
    return failed;
  }

  private static <T extends HasMetadata> Optional<T> find(List<HasMetadata> manifests, Class<T> type, String ns,
      String name) {
    return all(manifests, type).stream().filter(o -> name.equals(o.getMetadata().getName())
        && (ns == null || ns.equals(o.getMetadata().getNamespace()))).findFirst();
  }

  private static <T extends HasMetadata> List<T> all(List<HasMetadata> manifests, Class<T> type) {
    List<T> out = new ArrayList<>();
    manifests.stream().filter(type::isInstance).map(type::cast).forEach(out::add);
    return out;
  }
}
