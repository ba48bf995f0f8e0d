package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.modelplane.api.common.Schemas;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.Volume;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The subset of pod settings a serving runtime declares at its top level (and for its legacy {@code workers}).
 * They predate {@code engineConfig} and still feed it: an engine container that sets no resources takes the
 * requests and limits of the top-level container with the same name, and the top-level node selector is the base
 * that accelerator classes and the InferenceService refine.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public abstract class ServingRuntimePodSpec {
  /** Containers of the serving pod, merged by name. */
  @JsonProperty("containers")
  @SchemaPatch(PodTemplateSchemas.CONTAINERS)
  private List<Container> containers;

  /** Volumes the containers can mount, merged by name. */
  @JsonProperty("volumes")
  @SchemaPatch(PodTemplateSchemas.LIST_BY_NAME)
  private List<Volume> volumes;

  /** Node labels a node must carry for the serving pods to be scheduled on it. */
  @JsonProperty("nodeSelector")
  private Map<String, String> nodeSelector;

  /** Scheduling constraints of the serving pods. */
  @JsonProperty("affinity")
  private Affinity affinity;

  /** Taints the serving pods tolerate. */
  @JsonProperty("tolerations")
  @SchemaPatch(Schemas.ATOMIC_LIST)
  private List<Toleration> tolerations;

  /** Labels added to the serving pods. */
  @JsonProperty("labels")
  private Map<String, String> labels;

  /** Annotations added to the serving pods. */
  @JsonProperty("annotations")
  private Map<String, String> annotations;

  /** Secrets in the pod's namespace used to pull the images, merged by name. */
  @JsonProperty("imagePullSecrets")
  @SchemaPatch(PodTemplateSchemas.IMAGE_PULL_SECRETS)
  private List<LocalObjectReference> imagePullSecrets;

  /** Scheduler that places the serving pods; the default scheduler when unset. */
  @JsonProperty("schedulerName")
  private String schedulerName;

  /** Whether the pods share the node's IPC namespace; false when unset. */
  @JsonProperty("hostIPC")
  private Boolean hostIPC;

  /**
   * DNS policy of the pods: {@code ClusterFirst} (the default), {@code ClusterFirstWithHostNet}, {@code Default}
   * or {@code None}.
   */
  @JsonProperty("dnsPolicy")
  private String dnsPolicy;

  /** Whether the pods use the node's network namespace; false when unset. */
  @JsonProperty("hostNetwork")
  private Boolean hostNetwork;

  /** Creates empty pod settings. */
  protected ServingRuntimePodSpec() {
  }

  public List<Container> getContainers() {
    return containers;
  }

  public void setContainers(List<Container> containers) {
    this.containers = containers;
  }

  public List<Volume> getVolumes() {
    return volumes;
  }

  public void setVolumes(List<Volume> volumes) {
    this.volumes = volumes;
  }

  public Map<String, String> getNodeSelector() {
    return nodeSelector;
  }

  public void setNodeSelector(Map<String, String> nodeSelector) {
    this.nodeSelector = nodeSelector;
  }

  public Affinity getAffinity() {
    return affinity;
  }

  public void setAffinity(Affinity affinity) {
    this.affinity = affinity;
  }

  public List<Toleration> getTolerations() {
    return tolerations;
  }

  public void setTolerations(List<Toleration> tolerations) {
    this.tolerations = tolerations;
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

  public List<LocalObjectReference> getImagePullSecrets() {
    return imagePullSecrets;
  }

  public void setImagePullSecrets(List<LocalObjectReference> imagePullSecrets) {
    this.imagePullSecrets = imagePullSecrets;
  }

  public String getSchedulerName() {
    return schedulerName;
  }

  public void setSchedulerName(String schedulerName) {
    this.schedulerName = schedulerName;
  }

  public Boolean getHostIPC() {
    return hostIPC;
  }

  public void setHostIPC(Boolean hostIPC) {
    this.hostIPC = hostIPC;
  }

  public String getDnsPolicy() {
    return dnsPolicy;
  }

  public void setDnsPolicy(String dnsPolicy) {
    this.dnsPolicy = dnsPolicy;
  }

  public Boolean getHostNetwork() {
    return hostNetwork;
  }

  public void setHostNetwork(Boolean hostNetwork) {
    this.hostNetwork = hostNetwork;
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (o == null || o.getClass() != getClass()) {
      return false;
    }
    ServingRuntimePodSpec other = (ServingRuntimePodSpec) o;
    return Objects.equals(containers, other.containers) && Objects.equals(volumes, other.volumes)
        && Objects.equals(nodeSelector, other.nodeSelector) && Objects.equals(affinity, other.affinity)
        && Objects.equals(tolerations, other.tolerations) && Objects.equals(labels, other.labels)
        && Objects.equals(annotations, other.annotations) && Objects.equals(imagePullSecrets, other.imagePullSecrets)
        && Objects.equals(schedulerName, other.schedulerName) && Objects.equals(hostIPC, other.hostIPC)
        && Objects.equals(dnsPolicy, other.dnsPolicy) && Objects.equals(hostNetwork, other.hostNetwork);
  }

  @Override
  public int hashCode() {
    return Objects.hash(containers, volumes, nodeSelector, affinity, tolerations, labels, annotations,
        imagePullSecrets, schedulerName, hostIPC, dnsPolicy, hostNetwork);
  }

  /** The pod settings as {@code name=value} pairs, for {@link #toString()} of subclasses. */
  protected String podFields() {
    return "containers=" + containers + ", volumes=" + volumes + ", nodeSelector=" + nodeSelector + ", affinity="
        + affinity + ", tolerations=" + tolerations + ", labels=" + labels + ", annotations=" + annotations
        + ", imagePullSecrets=" + imagePullSecrets + ", schedulerName=" + schedulerName + ", hostIPC=" + hostIPC
        + ", dnsPolicy=" + dnsPolicy + ", hostNetwork=" + hostNetwork;
  }
}
