package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.Required;

/**
 * Weights produced by fine-tuning a base model (for example a LoRA adapter) and where to fetch them. An inference
 * service serves them by naming the weights next to its base model; the weights are fetched into the serving pod
 * before the model server starts.
 *
 * @param baseModelRef The base model these weights were trained on; a service may serve them only on that model.
 *     With a namespace it is the BaseModel of that namespace; without one, the base model of that name the service
 *     resolves (its namespace's BaseModel, else the ClusterBaseModel).
 * @param modelType Kind of fine-tuning result, e.g. {@code LoRA}, {@code Adapter}, {@code Distillation} or
 *     {@code Tfew}.
 * @param hyperParameters Training settings as arbitrary JSON. Its {@code strategy} key ({@code lora} or
 *     {@code tfew}) tells the serving side how to load the weights and is needed to serve them.
 * @param configuration Serving-related settings as arbitrary JSON; {@code merged_weights: true} means the weights
 *     already contain the base model, so the base model's files are not mounted.
 * @param storage Where the weights are stored.
 * @param trainingJobRef The training job that produced the weights. Informational: recorded for people and tools,
 *     not acted on.
 * @param displayName Human-friendly name of the weights. Informational: recorded for people and tools, not acted
 *     on.
 * @param version Version of the weights.
 * @param vendor Publisher of the weights.
 * @param disabled When true the weights may not be used by new inference services.
 * @param compartmentID Identifier of the tenant compartment the weights belong to. Informational: recorded for
 *     people and tools, not acted on.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FineTunedWeightSpec(
    @Required NamespacedObjectReference baseModelRef,
    @Required String modelType,
    @Required
    @SchemaPatch("{\"type\":\"object\",\"x-kubernetes-preserve-unknown-fields\":true}")
    JsonNode hyperParameters,
    @SchemaPatch("{\"type\":\"object\",\"x-kubernetes-preserve-unknown-fields\":true}") JsonNode configuration,
    @Required StorageSpec storage,
    NamespacedObjectReference trainingJobRef,
    String displayName,
    String version,
    String vendor,
    Boolean disabled,
    String compartmentID) {
}
