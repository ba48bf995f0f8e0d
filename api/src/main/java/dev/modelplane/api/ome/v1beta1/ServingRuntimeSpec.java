package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.modelplane.api.common.Schemas;
import dev.modelplane.crdtools.SchemaPatch;
import java.util.List;
import java.util.Objects;

/**
 * What a serving runtime serves and how: the kinds of model it supports (used to pick a runtime for an
 * InferenceService that names none) and templates for the engine, decoder and router pods an InferenceService
 * merges its own settings over. A runtime's component templates never create a component by themselves: only the
 * components an InferenceService declares are deployed.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public final class ServingRuntimeSpec extends ServingRuntimePodSpec {
  private static final String RUNNER_NAME_REQUIRED = "{\"properties\":{\"runner\":{\"required\":[\"name\"]}}}";

  /**
   * The kinds of model this runtime can serve. During auto-selection a runtime qualifies when one entry matches
   * the model and at least one entry allows auto-selection; the best-scoring entry decides its rank.
   */
  @JsonProperty("supportedModelFormats")
  @SchemaPatch(Schemas.ATOMIC_LIST)
  private List<SupportedModelFormat> supportedModelFormats;

  /** The model sizes the runtime is meant for; any size when unset. */
  @JsonProperty("modelSizeRange")
  private ModelSizeRangeSpec modelSizeRange;

  /** Takes the runtime out of use: it is neither auto-selected nor accepted when named. */
  @JsonProperty("disabled")
  private Boolean disabled;

  /** Template of the router component; its runner must be named. */
  @JsonProperty("routerConfig")
  @SchemaPatch(RUNNER_NAME_REQUIRED)
  private RouterSpec routerConfig;

  /** Template of the engine component; its runner must be named. */
  @JsonProperty("engineConfig")
  @SchemaPatch(RUNNER_NAME_REQUIRED)
  private EngineSpec engineConfig;

  /** Template of the decoder component for prefill-decode disaggregated serving; its runner must be named. */
  @JsonProperty("decoderConfig")
  @SchemaPatch(RUNNER_NAME_REQUIRED)
  private DecoderSpec decoderConfig;

  /** The inference APIs the runtime's model servers speak, e.g. {@code openAI}. */
  @JsonProperty("protocolVersions")
  @SchemaPatch(Schemas.ATOMIC_LIST)
  private List<InferenceServiceProtocol> protocolVersions;

  /** Legacy worker pods for multi-node serving; newer runtimes use {@code engineConfig.worker}. */
  @JsonProperty("workers")
  private WorkerPodSpec workers;

  /** The accelerator classes and capabilities the runtime needs. */
  @JsonProperty("acceleratorRequirements")
  private AcceleratorRequirements acceleratorRequirements;

  /** Creates an empty runtime spec. */
  public ServingRuntimeSpec() {
  }

  public List<SupportedModelFormat> getSupportedModelFormats() {
    return supportedModelFormats;
  }

  public void setSupportedModelFormats(List<SupportedModelFormat> supportedModelFormats) {
    this.supportedModelFormats = supportedModelFormats;
  }

  public ModelSizeRangeSpec getModelSizeRange() {
    return modelSizeRange;
  }

  public void setModelSizeRange(ModelSizeRangeSpec modelSizeRange) {
    this.modelSizeRange = modelSizeRange;
  }

  public Boolean getDisabled() {
    return disabled;
  }

  public void setDisabled(Boolean disabled) {
    this.disabled = disabled;
  }

  public RouterSpec getRouterConfig() {
    return routerConfig;
  }

  public void setRouterConfig(RouterSpec routerConfig) {
    this.routerConfig = routerConfig;
  }

  public EngineSpec getEngineConfig() {
    return engineConfig;
  }

  public void setEngineConfig(EngineSpec engineConfig) {
    this.engineConfig = engineConfig;
  }

  public DecoderSpec getDecoderConfig() {
    return decoderConfig;
  }

  public void setDecoderConfig(DecoderSpec decoderConfig) {
    this.decoderConfig = decoderConfig;
  }

  public List<InferenceServiceProtocol> getProtocolVersions() {
    return protocolVersions;
  }

  public void setProtocolVersions(List<InferenceServiceProtocol> protocolVersions) {
    this.protocolVersions = protocolVersions;
  }

  public WorkerPodSpec getWorkers() {
    return workers;
  }

  public void setWorkers(WorkerPodSpec workers) {
    this.workers = workers;
  }

  public AcceleratorRequirements getAcceleratorRequirements() {
    return acceleratorRequirements;
  }

  public void setAcceleratorRequirements(AcceleratorRequirements acceleratorRequirements) {
    this.acceleratorRequirements = acceleratorRequirements;
  }

  @Override
  public boolean equals(Object o) {
    if (!super.equals(o)) {
      return false;
    }
    ServingRuntimeSpec other = (ServingRuntimeSpec) o;
    return Objects.equals(supportedModelFormats, other.supportedModelFormats)
        && Objects.equals(modelSizeRange, other.modelSizeRange) && Objects.equals(disabled, other.disabled)
        && Objects.equals(routerConfig, other.routerConfig) && Objects.equals(engineConfig, other.engineConfig)
        && Objects.equals(decoderConfig, other.decoderConfig)
        && Objects.equals(protocolVersions, other.protocolVersions) && Objects.equals(workers, other.workers)
        && Objects.equals(acceleratorRequirements, other.acceleratorRequirements);
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), supportedModelFormats, modelSizeRange, disabled, routerConfig,
        engineConfig, decoderConfig, protocolVersions, workers, acceleratorRequirements);
  }

  @Override
  public String toString() {
    return "ServingRuntimeSpec(" + podFields() + ", supportedModelFormats=" + supportedModelFormats
        + ", modelSizeRange=" + modelSizeRange + ", disabled=" + disabled + ", routerConfig=" + routerConfig
        + ", engineConfig=" + engineConfig + ", decoderConfig=" + decoderConfig + ", protocolVersions="
        + protocolVersions + ", workers=" + workers + ", acceleratorRequirements=" + acceleratorRequirements + ")";
  }
}
