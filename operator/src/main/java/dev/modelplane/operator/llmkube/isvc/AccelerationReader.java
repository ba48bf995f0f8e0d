package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.AccelerationStatus;
import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.operator.common.Clients;
import dev.modelplane.operator.common.EventRecorder;
import dev.modelplane.operator.llmkube.runtime.GpuPlan;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * llama.cpp only: reads the start of one Ready pod's server log, once per pod, to learn where the model was loaded
 * ({@link AccelerationLog}); a GPU service that offloaded no layer gets a {@code RunningOnCPU} Warning. Reading and
 * remembering are separate steps, so a reconcile that stops before its status is recorded reads the log again.
 */
final class AccelerationReader {
  private static final Logger LOG = LoggerFactory.getLogger(AccelerationReader.class);
  /** llama.cpp prints where it loaded the model within its first few kilobytes; read at most this much. */
  private static final int LOG_BYTES = 256 * 1024;
  private static final String CONTAINER = "llama-server";

  private final EventRecorder events;
  /** Per service, the pod whose log was last read. */
  private final Map<ResourceID, String> readFrom = new ConcurrentHashMap<>();

  AccelerationReader(EventRecorder events) {
    this.events = events;
  }

  /**
   * One pod's server log, read.
   *
   * @param podUid the pod's uid
   * @param podName the pod's name
   * @param status where the model was loaded, or null when the log was unavailable or did not say
   */
  record Reading(String podUid, String podName, AccelerationStatus status) {
  }

  /** The log of the first Ready pod, unless that pod's log was read already; null when there is nothing new. */
  Reading read(InferenceService isvc, ServingPlan plan, Collection<Pod> pods, KubernetesClient client) {
    if (!CONTAINER.equals(plan.renderer().containerName())) {
      return null;
    }
    for (Pod pod : pods) {
      if (pod.getMetadata().getDeletionTimestamp() != null || !StartupProtection.ready(pod)) {
        continue;
      }
      String uid = pod.getMetadata().getUid();
      if (uid == null || uid.equals(readFrom.get(ResourceID.fromResource(isvc)))) {
        return null;
      }
      return new Reading(uid, pod.getMetadata().getName(), parse(isvc, pod, client));
    }
    return null;
  }

  /** Remembers the pod read, so its log is not read again, and warns when a GPU service runs on the CPU. */
  void remember(InferenceService isvc, Reading reading, GpuPlan gpu) {
    readFrom.put(ResourceID.fromResource(isvc), reading.podUid());
    AccelerationStatus a = reading.status();
    if (a != null && gpu.count() > 0 && Integer.valueOf(0).equals(a.layersOffloaded())) {
      events.warning(isvc, "RunningOnCPU", "pod " + reading.podName() + " asked for " + gpu.count() + " "
          + gpu.resourceName() + " but llama.cpp offloaded 0 of " + a.layersTotal()
          + " layers: the model runs on the CPU (check the image's GPU backend and the device plugin)");
    }
  }

  private static AccelerationStatus parse(InferenceService isvc, Pod pod, KubernetesClient client) {
    String ns = isvc.getMetadata().getNamespace();
    String podName = pod.getMetadata().getName();
    try {
      return AccelerationLog.parse(Clients.withoutRetries(client).pods().inNamespace(ns)
          .withName(podName).inContainer(CONTAINER).limitBytes(LOG_BYTES).getLog());
    } catch (KubernetesClientException e) {
      LOG.debug("server log unavailable isvc={}/{} pod={} error=\"{}\"", ns, isvc.getMetadata().getName(), podName,
          e.getMessage());
      return null;
    }
  }

  /** Forgets a deleted service. */
  void forget(ResourceID id) {
    readFrom.remove(id);
  }
}
