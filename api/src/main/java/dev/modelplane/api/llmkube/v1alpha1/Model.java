package dev.modelplane.api.llmkube.v1alpha1;

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
 * A model artifact (usually a GGUF file) and the hardware it should run on. InferenceServices in the same namespace
 * refer to it by name. Depending on the source, the controller checks a PersistentVolumeClaim, copies a local file,
 * or leaves the download to the serving pod's init container (reading only the GGUF header itself).
 */
@Group(InferenceService.GROUP)
@Version(InferenceService.VERSION)
@Kind("Model")
@Plural("models")
@Singular("model")
@ShortNames("mdl")
@Categories("modelplane")
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Size", jsonPath = ".status.size", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Accelerator", jsonPath = ".spec.hardware.accelerator",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Arch", jsonPath = ".status.gguf.architecture",
    type = AdditionalPrinterColumn.Type.STRING, priority = 1)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class Model extends CustomResource<ModelSpec, ModelStatus> implements Namespaced {

  /** The desired state; every Model must have one. */
  @Override
  @Required
  public ModelSpec getSpec() {
    return super.getSpec();
  }
}
