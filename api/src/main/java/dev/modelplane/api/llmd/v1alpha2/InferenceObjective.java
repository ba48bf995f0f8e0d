package dev.modelplane.api.llmd.v1alpha2;

import dev.modelplane.api.gie.v1alpha2.InferenceObjectiveSpec;
import dev.modelplane.api.gie.v1alpha2.InferenceObjectiveStatus;
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
 * Serving goals for a class of requests sent to an InferencePool, in llm-d's API group. The fields are those of the
 * Gateway API Inference Extension's experimental InferenceObjective, which llm-d's router reads from this group in
 * preference when both are installed. Requests name their objective in the {@code x-gateway-inference-objective}
 * header; the objective's priority decides who waits and who is shed when the pool is saturated.
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
  /** llm-d's API group for the inference kinds it carries on from the Gateway API Inference Extension. */
  public static final String GROUP = "llm-d.ai";
  /** The served and stored version. */
  public static final String VERSION = "v1alpha2";
}
