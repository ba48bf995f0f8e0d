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
 * A served language model: one or more pods running a model server (llama.cpp by default, or llama.cpp's router mode,
 * vLLM, SGLang, TGI, PersonaPlex or any container) for the Model named in {@code modelRef}, behind a Service with an
 * OpenAI-compatible endpoint. The controller owns the Deployment, the Service and, with {@code autoscaling}, a
 * HorizontalPodAutoscaler. The {@code /scale} subresource lets {@code kubectl scale}, HPAs and KEDA change
 * {@code spec.replicas}.
 */
@Group(InferenceService.GROUP)
@Version(InferenceService.VERSION)
@Kind("InferenceService")
@Plural("inferenceservices")
@Singular("inferenceservice")
// Not upstream's "isvc": OME's InferenceService keeps that one, and kubectl cannot resolve a shared short name.
@ShortNames("lisvc")
@Categories("modelplane")
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Model", jsonPath = ".spec.modelRef", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Replicas", jsonPath = ".status.readyReplicas",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Reason", jsonPath = ".status.schedulingStatus",
    type = AdditionalPrinterColumn.Type.STRING, priority = 1)
@AdditionalPrinterColumn(name = "Queue", jsonPath = ".status.queuePosition",
    type = AdditionalPrinterColumn.Type.INTEGER, priority = 1)
@AdditionalPrinterColumn(name = "Priority", jsonPath = ".spec.priority", type = AdditionalPrinterColumn.Type.STRING,
    priority = 1)
@AdditionalPrinterColumn(name = "Endpoint", jsonPath = ".status.endpoint", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class InferenceService extends CustomResource<InferenceServiceSpec, InferenceServiceStatus>
    implements Namespaced {
  /** API group of LLMKube's inference types. */
  public static final String GROUP = "inference.llmkube.dev";
  /** The served and stored version. */
  public static final String VERSION = "v1alpha1";

  /** The desired state; every InferenceService must have one. */
  @Override
  @Required
  public InferenceServiceSpec getSpec() {
    return super.getSpec();
  }
}
