package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.api.common.Schemas;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.util.List;
import java.util.Map;

/**
 * Changes to the pod that runs a benchmark, merged over the operator's defaults (image and resources from its
 * configuration, a toleration for GPU nodes). Lists merge by name, maps key by key; what is not set here keeps the
 * default.
 *
 * @param image Container image of the benchmark runner.
 * @param env Extra environment variables for the runner container; an entry replaces a default of the same name.
 * @param envFrom Sources (ConfigMaps, Secrets) whose keys all become environment variables of the runner container.
 * @param volumeMounts Extra mounts for the runner container, usually of the volumes below.
 * @param resources CPU, memory and other resources of the runner container.
 * @param tolerations Taints the pod tolerates, in addition to the default ones.
 * @param nodeSelector Node labels the pod's node must carry.
 * @param affinity Scheduling constraints for the pod.
 * @param volumes Extra volumes for the pod.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PodOverride(
    String image,
    @SchemaPatch("{\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"name\"],"
        + "\"items\":{\"required\":[\"name\"]}}")
    List<EnvVar> env,
    @SchemaPatch(Schemas.ATOMIC_LIST) List<EnvFromSource> envFrom,
    @SchemaPatch("{\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"mountPath\"],"
        + "\"items\":{\"required\":[\"name\",\"mountPath\"]}}")
    List<VolumeMount> volumeMounts,
    ResourceRequirements resources,
    @SchemaPatch(Schemas.ATOMIC_LIST) List<Toleration> tolerations,
    @SchemaPatch("{\"x-kubernetes-map-type\":\"atomic\"}") Map<String, String> nodeSelector,
    Affinity affinity,
    @SchemaPatch(Schemas.ATOMIC_LIST) List<Volume> volumes) {
}
