package dev.modelplane.api.ome.v1beta1;

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
 * A model-server template available to InferenceServices in one namespace: which kinds of model it serves and the
 * pods (engine, decoder, router) that serve them. An InferenceService names a runtime or has one chosen for its
 * model; a namespaced runtime is preferred over a ClusterServingRuntime of the same name and, during
 * auto-selection, over every cluster-scoped runtime.
 */
@Group(ServingRuntime.GROUP)
@Version(ServingRuntime.VERSION)
@Kind("ServingRuntime")
@Plural("servingruntimes")
@Singular("servingruntime")
@Categories({"modelplane"})
@AdditionalPrinterColumn(name = "Disabled", jsonPath = ".spec.disabled", type = AdditionalPrinterColumn.Type.BOOLEAN)
@AdditionalPrinterColumn(name = "ModelFormat", jsonPath = ".spec.supportedModelFormats[*].modelFormat.name",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "ModelFramework", jsonPath = ".spec.supportedModelFormats[*].modelFramework.name",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "ModelFrameworkVersion",
    jsonPath = ".spec.supportedModelFormats[*].modelFramework.version", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "ModelArchitecture", jsonPath = ".spec.supportedModelFormats[*].modelArchitecture",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "ModelSizeMin", jsonPath = ".spec.modelSizeRange.min",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "ModelSizeMax", jsonPath = ".spec.modelSizeRange.max",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Images", jsonPath = ".spec.containers[*].image",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class ServingRuntime extends CustomResource<ServingRuntimeSpec, ServingRuntimeStatus> implements Namespaced {
  /** API group of OME's serving types. */
  public static final String GROUP = "ome.io";
  /** The served and stored version. */
  public static final String VERSION = "v1beta1";
}
