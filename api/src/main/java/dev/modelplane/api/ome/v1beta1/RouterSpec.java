package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.Map;
import java.util.Objects;

/**
 * The router: pods in front of the engine (and decoder) that pick a model-server pod for each request, e.g. for
 * cache-aware load balancing or to pair prefill and decode pods. When present it receives the InferenceService's
 * traffic. The router gets a service account allowed to list the pods it routes to.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@SchemaPatch(PodTemplateSchemas.POD_SPEC_LISTS)
@ValidationRule(value = "!has(self.minAvailable) || !has(self.maxUnavailable)",
    message = "minAvailable and maxUnavailable are mutually exclusive")
public final class RouterSpec extends ComponentExtensionSpec {
  /** Overrides for the router's main container, merged over the runtime's router container. */
  @JsonProperty("runner")
  private RunnerSpec runner;

  /** Router settings, passed to the router's main container as environment variables (name to value). */
  @JsonProperty("config")
  private Map<String, String> config;

  /** Creates an empty router spec. */
  public RouterSpec() {
  }

  public RunnerSpec getRunner() {
    return runner;
  }

  public void setRunner(RunnerSpec runner) {
    this.runner = runner;
  }

  public Map<String, String> getConfig() {
    return config;
  }

  public void setConfig(Map<String, String> config) {
    this.config = config;
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (!(o instanceof RouterSpec other) || !super.equals(o)) {
      return false;
    }
    return Objects.equals(runner, other.runner) && Objects.equals(config, other.config);
  }

  @Override
  protected boolean canEqual(Object other) {
    return other instanceof RouterSpec;
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), runner, config);
  }

  @Override
  public String toString() {
    return "RouterSpec(" + super.toString() + ", " + extensionFields() + ", runner=" + runner + ", config=" + config
        + ")";
  }
}
