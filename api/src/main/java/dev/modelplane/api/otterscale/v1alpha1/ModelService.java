package dev.modelplane.api.otterscale.v1alpha1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
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
 * One vLLM-served model packaged as an OCI artifact (ModelPack or ModelKit), together with everything needed to
 * reach it through a Gateway: a decode Deployment, an optional prefill Deployment for prefill/decode
 * disaggregation, a per-model endpoint picker (Deployment, Service, ConfigMap, ServiceAccount and RBAC), an
 * InferencePool over the serving pods, an HTTPRoute that matches the {@code OtterScale-Model-Name} request header
 * against this object's name, and Prometheus PodMonitors. Every serving pod downloads and unpacks the artifact
 * into an emptyDir with an init container before vLLM starts.
 */
@Group(ModelService.GROUP)
@Version(ModelService.VERSION)
@Kind("ModelService")
@Plural("modelservices")
@Singular("modelservice")
@ShortNames("msvc")
@Categories({"otterscale", "modelplane"})
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Model", jsonPath = ".spec.model.name", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Decode", jsonPath = ".status.decodeReady", type = AdditionalPrinterColumn.Type.STRING,
    priority = 1)
@AdditionalPrinterColumn(name = "Prefill", jsonPath = ".status.prefillReady",
    type = AdditionalPrinterColumn.Type.STRING, priority = 1)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class ModelService extends CustomResource<ModelServiceSpec, ModelServiceStatus> implements Namespaced {
  /** API group of OtterScale's model-serving types. */
  public static final String GROUP = "model.otterscale.io";
  /** The served and stored version. */
  public static final String VERSION = "v1alpha1";

  /** The desired serving setup; a ModelService without one is rejected. */
  @Override
  @Required
  public ModelServiceSpec getSpec() {
    return super.getSpec();
  }
}
