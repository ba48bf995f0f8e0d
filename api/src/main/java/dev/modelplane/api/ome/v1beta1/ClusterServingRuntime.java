package dev.modelplane.api.ome.v1beta1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A model-server template available to InferenceServices in every namespace: which kinds of model it serves and
 * the pods (engine, decoder, router) that serve them. Same spec as a ServingRuntime; namespaced runtimes take
 * precedence over cluster-scoped ones.
 */
@Group(ServingRuntime.GROUP)
@Version(ServingRuntime.VERSION)
@Kind("ClusterServingRuntime")
@Plural("clusterservingruntimes")
@Singular("clusterservingruntime")
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
public class ClusterServingRuntime extends CustomResource<ServingRuntimeSpec, ServingRuntimeStatus> {
}
