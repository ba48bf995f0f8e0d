package dev.modelplane.cli.devcluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.util.Map;

/**
 * The status patch of a live pod, as a kubelet would write it: a container status per container (the live ones
 * from their simulator, the others running and ready), and {@code Ready}/{@code ContainersReady} from them.
 */
final class LivePodStatus {
  private static final ObjectMapper JSON = new ObjectMapper();

  private LivePodStatus() {
  }

  /** Whether every live container is ready. */
  static boolean ready(Map<String, LiveServer> servers) {
    return servers.values().stream().allMatch(s -> s.ready);
  }

  /** A strategic-merge patch of the pod's status (conditions merge by type; container statuses are replaced). */
  static String patch(Pod pod, Map<String, LiveServer> servers, Instant readySince) {
    boolean ready = ready(servers);
    ObjectNode status = JSON.createObjectNode();
    ObjectNode root = JSON.createObjectNode().set("status", status);
    ArrayNode conditions = status.putArray("conditions");
    for (String type : new String[] {"Ready", "ContainersReady"}) {
      ObjectNode c = conditions.addObject().put("type", type).put("status", ready ? "True" : "False")
          .put("lastTransitionTime", readySince.toString());
      if (ready) {
        c.putNull("reason").putNull("message");
      } else {
        c.put("reason", "ContainersNotReady").put("message", "containers with unready status: "
            + servers.entrySet().stream().filter(e -> !e.getValue().ready).map(Map.Entry::getKey).toList());
      }
    }
    String podStarted = pod.getStatus() != null && pod.getStatus().getStartTime() != null
        ? pod.getStatus().getStartTime() : readySince.toString();
    ArrayNode statuses = status.putArray("containerStatuses");
    for (Container c : pod.getSpec().getContainers()) {
      ObjectNode s = statuses.addObject().put("name", c.getName()).put("image", c.getImage()).put("imageID", "");
      LiveServer live = servers.get(c.getName());
      if (live == null) {
        s.put("ready", true).put("started", true).put("restartCount", 0);
        s.putObject("state").putObject("running").put("startedAt", podStarted);
        continue;
      }
      s.put("ready", live.ready).put("started", live.state == LiveServer.State.RUNNING)
          .put("restartCount", live.restarts);
      ObjectNode state = s.putObject("state");
      if (live.state == LiveServer.State.RUNNING) {
        state.putObject("running").put("startedAt", live.startedAt.toString());
      } else {
        state.putObject("waiting").put("reason", live.restarts > 0 ? "CrashLoopBackOff" : "ContainerCreating")
            .put("message", live.restarts > 0 ? "the simulator exited; restarting at " + live.nextStart : null);
      }
      if (live.lastTermination != null) {
        s.putObject("lastState").putObject("terminated").put("exitCode", live.lastTermination.exitCode())
            .put("reason", "Error").put("startedAt", live.lastTermination.startedAt().toString())
            .put("finishedAt", live.lastTermination.finishedAt().toString());
      }
    }
    return root.toString();
  }
}
