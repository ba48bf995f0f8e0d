package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apps.DeploymentStrategy;
import java.util.Map;
import java.util.Objects;

/**
 * A pod template for one component of an InferenceService (engine, decoder, router or the deprecated predictor)
 * together with how the component is deployed and scaled. All pod-spec fields sit at the top level of the
 * component, next to the deployment settings declared here.
 *
 * <p>How a component is deployed follows from these settings: {@code minReplicas: 0} makes an engine or router
 * serverless (a Knative Service; a decoder is never serverless); otherwise it is a Deployment with a Service, a
 * PodDisruptionBudget and an autoscaler (a HorizontalPodAutoscaler by default, a KEDA ScaledObject with the
 * annotation {@code ome.io/autoscalerClass: keda}, none with {@code external}). Engines and decoders with a leader
 * or worker run as a LeaderWorkerSet instead.
 *
 * <p>fabric8's {@code edit()} and {@code toBuilder()}, inherited from PodSpec, build a plain PodSpec and drop the
 * component's own fields; copy a component through serialization instead.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public abstract class ComponentExtensionSpec extends PodSpec {
  /**
   * Fewest replicas to run; 1 when unset. 0 lets an engine or router scale to zero (serverless mode). The
   * autoscaler never goes below 1 in raw-deployment mode.
   */
  @JsonProperty("minReplicas")
  @Min(0)
  private Integer minReplicas;

  /**
   * Most replicas the autoscaler may run; when unset (or 0) 3 for an engine or decoder and 2 for a router. A value
   * below {@code minReplicas} counts as {@code minReplicas}.
   */
  @JsonProperty("maxReplicas")
  @Min(0)
  private Integer maxReplicas;

  /**
   * Target value of {@code scaleMetric} per pod: a utilisation percentage for {@code cpu} and {@code memory} (80
   * when unset), requests in flight or per second for {@code concurrency} and {@code rps}. The annotation
   * {@code ome.io/targetUtilizationPercentage} takes precedence.
   */
  @JsonProperty("scaleTarget")
  @Min(1)
  private Integer scaleTarget;

  /**
   * Metric the autoscaler follows: {@code cpu} (the default) or {@code memory} for a HorizontalPodAutoscaler,
   * {@code concurrency} or {@code rps} for the Knative autoscaler of a serverless component. With KEDA it names
   * the metric ({@code tps} when unset).
   */
  @JsonProperty("scaleMetric")
  private ScaleMetric scaleMetric;

  /**
   * Hard limit on requests one container handles at a time (serverless mode only); 0 or unset means no limit.
   */
  @JsonProperty("containerConcurrency")
  @Min(0)
  private Long containerConcurrency;

  /** Seconds a request to the component may take before it times out (serverless mode only). */
  @JsonProperty("timeoutSeconds")
  private Long timeoutSeconds;

  /**
   * Percentage of traffic (0 to 100) sent to the newest revision while the previously rolled-out revision, tagged
   * {@code prev}, receives the rest (serverless mode only). Unset sends all traffic to the newest revision.
   */
  @JsonProperty("canaryTrafficPercent")
  @Min(0)
  @Max(100)
  private Long canaryTrafficPercent;

  /** Labels added to the component's pods and to the objects created for it. */
  @JsonProperty("labels")
  private Map<String, String> labels;

  /**
   * Annotations added to the component's pods and to the objects created for it, e.g.
   * {@code ome.io/deploymentMode} to force a deployment mode for this component.
   */
  @JsonProperty("annotations")
  private Map<String, String> annotations;

  /**
   * Pods (a number or a percentage) the component's PodDisruptionBudget keeps available during voluntary
   * disruptions. Mutually exclusive with {@code maxUnavailable}; raw-deployment mode only.
   */
  @JsonProperty("minAvailable")
  private IntOrString minAvailable;

  /**
   * Pods (a number or a percentage) the component's PodDisruptionBudget lets be unavailable during voluntary
   * disruptions; 1 when neither this nor {@code minAvailable} is set. Raw-deployment mode only.
   */
  @JsonProperty("maxUnavailable")
  private IntOrString maxUnavailable;

  /**
   * How the Deployment replaces old pods with new ones (raw-deployment mode only). By default a rolling update that
   * adds one pod at a time and never drops below the desired count (maxSurge 1, maxUnavailable 0).
   */
  @JsonProperty("deploymentStrategy")
  @SchemaPatch("{\"properties\":{\"type\":{\"enum\":[\"Recreate\",\"RollingUpdate\"]}}}")
  private DeploymentStrategy deploymentStrategy;

  /**
   * KEDA settings for this component alone. Upstream OME ignores the per-component block and reads only the
   * InferenceService-level {@code kedaConfig}.
   */
  @JsonProperty("kedaConfig")
  private KedaConfig kedaConfig;

  /** Creates an empty component spec. */
  protected ComponentExtensionSpec() {
  }

  public Integer getMinReplicas() {
    return minReplicas;
  }

  public void setMinReplicas(Integer minReplicas) {
    this.minReplicas = minReplicas;
  }

  public Integer getMaxReplicas() {
    return maxReplicas;
  }

  public void setMaxReplicas(Integer maxReplicas) {
    this.maxReplicas = maxReplicas;
  }

  public Integer getScaleTarget() {
    return scaleTarget;
  }

  public void setScaleTarget(Integer scaleTarget) {
    this.scaleTarget = scaleTarget;
  }

  public ScaleMetric getScaleMetric() {
    return scaleMetric;
  }

  public void setScaleMetric(ScaleMetric scaleMetric) {
    this.scaleMetric = scaleMetric;
  }

  public Long getContainerConcurrency() {
    return containerConcurrency;
  }

  public void setContainerConcurrency(Long containerConcurrency) {
    this.containerConcurrency = containerConcurrency;
  }

  public Long getTimeoutSeconds() {
    return timeoutSeconds;
  }

  public void setTimeoutSeconds(Long timeoutSeconds) {
    this.timeoutSeconds = timeoutSeconds;
  }

  public Long getCanaryTrafficPercent() {
    return canaryTrafficPercent;
  }

  public void setCanaryTrafficPercent(Long canaryTrafficPercent) {
    this.canaryTrafficPercent = canaryTrafficPercent;
  }

  public Map<String, String> getLabels() {
    return labels;
  }

  public void setLabels(Map<String, String> labels) {
    this.labels = labels;
  }

  public Map<String, String> getAnnotations() {
    return annotations;
  }

  public void setAnnotations(Map<String, String> annotations) {
    this.annotations = annotations;
  }

  public IntOrString getMinAvailable() {
    return minAvailable;
  }

  public void setMinAvailable(IntOrString minAvailable) {
    this.minAvailable = minAvailable;
  }

  public IntOrString getMaxUnavailable() {
    return maxUnavailable;
  }

  public void setMaxUnavailable(IntOrString maxUnavailable) {
    this.maxUnavailable = maxUnavailable;
  }

  public DeploymentStrategy getDeploymentStrategy() {
    return deploymentStrategy;
  }

  public void setDeploymentStrategy(DeploymentStrategy deploymentStrategy) {
    this.deploymentStrategy = deploymentStrategy;
  }

  public KedaConfig getKedaConfig() {
    return kedaConfig;
  }

  public void setKedaConfig(KedaConfig kedaConfig) {
    this.kedaConfig = kedaConfig;
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (!(o instanceof ComponentExtensionSpec other) || !super.equals(o)) {
      return false;
    }
    return Objects.equals(minReplicas, other.minReplicas)
        && Objects.equals(maxReplicas, other.maxReplicas)
        && Objects.equals(scaleTarget, other.scaleTarget)
        && scaleMetric == other.scaleMetric
        && Objects.equals(containerConcurrency, other.containerConcurrency)
        && Objects.equals(timeoutSeconds, other.timeoutSeconds)
        && Objects.equals(canaryTrafficPercent, other.canaryTrafficPercent)
        && Objects.equals(labels, other.labels)
        && Objects.equals(annotations, other.annotations)
        && Objects.equals(minAvailable, other.minAvailable)
        && Objects.equals(maxUnavailable, other.maxUnavailable)
        && Objects.equals(deploymentStrategy, other.deploymentStrategy)
        && Objects.equals(kedaConfig, other.kedaConfig);
  }

  @Override
  protected boolean canEqual(Object other) {
    return other instanceof ComponentExtensionSpec;
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), minReplicas, maxReplicas, scaleTarget, scaleMetric, containerConcurrency,
        timeoutSeconds, canaryTrafficPercent, labels, annotations, minAvailable, maxUnavailable, deploymentStrategy,
        kedaConfig);
  }

  /** The deployment settings as {@code name=value} pairs, for {@link #toString()} of subclasses. */
  protected String extensionFields() {
    return "minReplicas=" + minReplicas + ", maxReplicas=" + maxReplicas + ", scaleTarget=" + scaleTarget
        + ", scaleMetric=" + scaleMetric + ", containerConcurrency=" + containerConcurrency + ", timeoutSeconds="
        + timeoutSeconds + ", canaryTrafficPercent=" + canaryTrafficPercent + ", labels=" + labels
        + ", annotations=" + annotations + ", minAvailable=" + minAvailable + ", maxUnavailable=" + maxUnavailable
        + ", deploymentStrategy=" + deploymentStrategy + ", kedaConfig=" + kedaConfig;
  }
}
