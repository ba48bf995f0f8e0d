package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.modelplane.api.common.Schemas;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.kubernetes.api.model.Container;
import java.util.List;
import java.util.Objects;

/**
 * The model of a deprecated predictor: which base model, fine-tuned weights and runtime to use, next to the fields
 * of a Kubernetes container (all optional, including {@code name}). When the predictor is read as an engine, these
 * container fields fill in what the serving container ({@code ome-container}, else the predictor's first container)
 * leaves unset, and are the serving container when the predictor has none; {@code env} is appended to the serving
 * container's.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@SchemaPatch(PodTemplateSchemas.CONTAINER_LISTS)
public final class ModelSpec extends Container {
  /** Name of the ServingRuntime or ClusterServingRuntime to use; chosen automatically when unset. */
  @JsonProperty("runtime")
  private String runtime;

  /** Name of the BaseModel or ClusterBaseModel to serve. */
  @JsonProperty("baseModel")
  private String baseModel;

  /** Names of FineTunedWeights to apply on top of the base model. */
  @JsonProperty("fineTunedWeights")
  @SchemaPatch(Schemas.ATOMIC_LIST)
  private List<String> fineTunedWeights;

  /**
   * Location of the model as the predictor form wrote it; the serving container gets it as {@code STORAGE_URI}. What
   * is mounted comes from the base model's storage.
   */
  @JsonProperty("storageUri")
  private String storageUri;

  /** Version of the runtime's serving image, recorded for compatibility and not acted on: set the image instead. */
  @JsonProperty("runtimeVersion")
  private String runtimeVersion;

  /**
   * Inference protocol the predictor serves, e.g. {@code openAI}; the serving container gets it as
   * {@code PROTOCOL_VERSION}, which a BenchmarkJob against the service uses as its API backend.
   */
  @JsonProperty("protocolVersion")
  private String protocolVersion;

  /** Creates an empty model spec. */
  public ModelSpec() {
  }

  public String getRuntime() {
    return runtime;
  }

  public void setRuntime(String runtime) {
    this.runtime = runtime;
  }

  public String getBaseModel() {
    return baseModel;
  }

  public void setBaseModel(String baseModel) {
    this.baseModel = baseModel;
  }

  public List<String> getFineTunedWeights() {
    return fineTunedWeights;
  }

  public void setFineTunedWeights(List<String> fineTunedWeights) {
    this.fineTunedWeights = fineTunedWeights;
  }

  public String getStorageUri() {
    return storageUri;
  }

  public void setStorageUri(String storageUri) {
    this.storageUri = storageUri;
  }

  public String getRuntimeVersion() {
    return runtimeVersion;
  }

  public void setRuntimeVersion(String runtimeVersion) {
    this.runtimeVersion = runtimeVersion;
  }

  public String getProtocolVersion() {
    return protocolVersion;
  }

  public void setProtocolVersion(String protocolVersion) {
    this.protocolVersion = protocolVersion;
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (!(o instanceof ModelSpec other) || !super.equals(o)) {
      return false;
    }
    return Objects.equals(runtime, other.runtime) && Objects.equals(baseModel, other.baseModel)
        && Objects.equals(fineTunedWeights, other.fineTunedWeights) && Objects.equals(storageUri, other.storageUri)
        && Objects.equals(runtimeVersion, other.runtimeVersion)
        && Objects.equals(protocolVersion, other.protocolVersion);
  }

  @Override
  protected boolean canEqual(Object other) {
    return other instanceof ModelSpec;
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), runtime, baseModel, fineTunedWeights, storageUri, runtimeVersion,
        protocolVersion);
  }

  @Override
  public String toString() {
    return "ModelSpec(" + super.toString() + ", runtime=" + runtime + ", baseModel=" + baseModel
        + ", fineTunedWeights=" + fineTunedWeights + ", storageUri=" + storageUri + ", runtimeVersion="
        + runtimeVersion + ", protocolVersion=" + protocolVersion + ")";
  }
}
