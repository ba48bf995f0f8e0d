package dev.modelplane.api.gie.v1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.Annotations;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A set of model-server pods that serve the same base model on the same accelerator, one of which is chosen for each
 * inference request. Gateways route to the pool as a backend; the picker named in {@code endpointPickerRef} decides
 * which pod gets each request, or, when the pool names none, the gateway decides itself.
 */
@Group(InferencePool.GROUP)
@Version(InferencePool.VERSION)
@Kind("InferencePool")
@Plural("inferencepools")
@Singular("inferencepool")
@ShortNames("infpool")
@Categories("modelplane")
// Upstream has no columns. The apiserver prints only the first match of a [*] path, so Target Ports is the list.
@AdditionalPrinterColumn(name = "Endpoint Picker", jsonPath = ".spec.endpointPickerRef.name",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Target Ports", jsonPath = ".spec.targetPorts",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Selector", jsonPath = ".spec.selector.matchLabels",
    type = AdditionalPrinterColumn.Type.STRING, priority = 1)
@AdditionalPrinterColumn(name = "Failure Mode", jsonPath = ".spec.endpointPickerRef.failureMode",
    type = AdditionalPrinterColumn.Type.STRING, priority = 1)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
// Groups under k8s.io are protected: the apiserver accepts their CRDs only with a link to the approved API review.
@Annotations("api-approved.kubernetes.io=https://github.com/kubernetes-sigs/gateway-api-inference-extension/pull/1173")
public class InferencePool extends CustomResource<InferencePoolSpec, InferencePoolStatus> implements Namespaced {
  /** API group of the Gateway API Inference Extension's stable types. */
  public static final String GROUP = "inference.networking.k8s.io";
  /** The served and stored version. */
  public static final String VERSION = "v1";
  /**
   * modelplane's annotation naming the models a pool's servers serve (comma-separated): set by the operator on the
   * pools it makes, read by the router, which then knows where a model is served before any server runs.
   */
  public static final String SERVED_MODELS_ANNOTATION = "modelplane.dev/served-models";

  /** The pool's members and ports; every InferencePool must have one, as upstream requires. */
  @Override
  @Required
  public InferencePoolSpec getSpec() {
    return super.getSpec();
  }
}
