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
 * A foundation model available to inference services in every namespace; the cluster-wide twin of BaseModel with
 * the same spec and status. Nodes holding a complete copy carry the label
 * models.ome.io/clusterbasemodel.&lt;name&gt;=Ready. Credentials named in its storage section are read from the
 * operator's namespace.
 */
@Group(BaseModel.GROUP)
@Version(BaseModel.VERSION)
@Kind("ClusterBaseModel")
@Plural("clusterbasemodels")
@Singular("clusterbasemodel")
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
public class ClusterBaseModel extends CustomResource<BaseModelSpec, ModelStatusSpec> {
}
