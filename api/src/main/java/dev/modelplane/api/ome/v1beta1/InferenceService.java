package dev.modelplane.api.ome.v1beta1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
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
 * A served model: which model (a BaseModel or ClusterBaseModel, optionally with fine-tuned weights), which serving
 * runtime (named, or chosen to fit the model), and the components that serve it — an engine, optionally a decoder
 * for prefill-decode disaggregation and a router in front. Each component's settings are merged over the runtime's
 * template for it. The deployment mode can be forced with the annotation {@code ome.io/deploymentMode}
 * ({@code RawDeployment}, {@code Serverless}, {@code MultiNode}, …) and the autoscaler chosen with
 * {@code ome.io/autoscalerClass} ({@code hpa}, {@code keda} or {@code external}).
 */
@Group(ServingRuntime.GROUP)
@Version(ServingRuntime.VERSION)
@Kind("InferenceService")
@Plural("inferenceservices")
@Singular("inferenceservice")
@ShortNames({"isvc", "oisvc"})
@Categories({"modelplane"})
@AdditionalPrinterColumn(name = "URL", jsonPath = ".status.url", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type=='Ready')].status",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "BaseModel", jsonPath = ".spec.model.name", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Runtime", jsonPath = ".spec.runtime.name", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Prev", jsonPath = ".status.components.engine.traffic[?(@.tag=='prev')].percent",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Latest",
    jsonPath = ".status.components.engine.traffic[?(@.latestRevision==true)].percent",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "PrevRolledoutRevision",
    jsonPath = ".status.components.engine.traffic[?(@.tag=='prev')].revisionName",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "LatestReadyRevision",
    jsonPath = ".status.components.engine.traffic[?(@.latestRevision==true)].revisionName",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class InferenceService extends CustomResource<InferenceServiceSpec, InferenceServiceStatus>
    implements Namespaced {
}
