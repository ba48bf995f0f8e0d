package dev.modelplane.api.gie.v1alpha2;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * Serving goals for a class of requests sent to an InferencePool. Requests name their objective in the
 * {@code x-gateway-inference-objective} header; the objective's priority decides who waits and who is shed when
 * the pool is saturated.
 */
@Group(InferenceObjective.GROUP)
@Version(InferenceObjective.VERSION)
@Kind("InferenceObjective")
@Plural("inferenceobjectives")
@Singular("inferenceobjective")
@Categories("modelplane")
@AdditionalPrinterColumn(name = "Inference Pool", jsonPath = ".spec.poolRef.name",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Priority", jsonPath = ".spec.priority", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class InferenceObjective extends CustomResource<InferenceObjectiveSpec, InferenceObjectiveStatus>
    implements Namespaced {
  /** API group of the Gateway API Inference Extension's experimental types. */
  public static final String GROUP = "inference.networking.x-k8s.io";
  /** The served and stored version. */
  public static final String VERSION = "v1alpha2";
}
