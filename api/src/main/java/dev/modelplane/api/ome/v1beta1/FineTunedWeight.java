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
 * Cluster-wide record of fine-tuned weights (such as a LoRA adapter) built on a base model. Inference services in
 * any namespace may serve them on top of their base model; one set of weights per service.
 */
@Group(BaseModel.GROUP)
@Version(BaseModel.VERSION)
@Kind("FineTunedWeight")
@Plural("finetunedweights")
@Singular("finetunedweight")
@Categories("modelplane")
@AdditionalPrinterColumn(name = "Disabled", jsonPath = ".spec.disabled", type = AdditionalPrinterColumn.Type.BOOLEAN)
@AdditionalPrinterColumn(name = "Version", jsonPath = ".spec.version", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Vendor", jsonPath = ".spec.vendor", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "CompartmentID", jsonPath = ".spec.compartmentID",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "ModelType", jsonPath = ".spec.modelType", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.state", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class FineTunedWeight extends CustomResource<FineTunedWeightSpec, ModelStatusSpec> {
}
