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
 * A foundation model available to the inference services of one namespace. The model agent copies its weights to
 * the nodes the storage section selects and labels each node
 * models.ome.io/&lt;namespace&gt;.basemodel.&lt;name&gt;=Ready once its copy is complete, so that serving pods land
 * only where the weights are. An inference service looks for a
 * BaseModel of the requested name in its own namespace first and falls back to a ClusterBaseModel.
 */
@Group(BaseModel.GROUP)
@Version(BaseModel.VERSION)
@Kind("BaseModel")
@Plural("basemodels")
@Singular("basemodel")
@Categories("modelplane")
@AdditionalPrinterColumn(name = "Disabled", jsonPath = ".spec.disabled", type = AdditionalPrinterColumn.Type.BOOLEAN)
@AdditionalPrinterColumn(name = "Version", jsonPath = ".spec.version", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Vendor", jsonPath = ".spec.vendor", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Framework", jsonPath = ".spec.modelFramework.name",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "FrameworkVersion", jsonPath = ".spec.modelFramework.version",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "ModelFormat", jsonPath = ".spec.modelFormat.name",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Architecture", jsonPath = ".spec.modelArchitecture",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Capabilities", jsonPath = ".spec.modelCapabilities[*]",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Size", jsonPath = ".spec.modelParameterSize",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "CompartmentID", jsonPath = ".spec.compartmentID",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.state", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class BaseModel extends CustomResource<BaseModelSpec, ModelStatusSpec> implements Namespaced {
  /** API group of OME's resources. */
  public static final String GROUP = "ome.io";
  /** The served and stored version. */
  public static final String VERSION = "v1beta1";
}
