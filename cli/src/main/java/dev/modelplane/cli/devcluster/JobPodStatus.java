package dev.modelplane.cli.devcluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The status of a job pod as a kubelet writes it for {@code restartPolicy: Never}: {@code Pending} while init
 * containers run (a failed one fails the pod), {@code Running} once a container runs, {@code Succeeded} when every
 * container exited 0, else {@code Failed}; each container's state (waiting, running, terminated with exit code,
 * reason, message and times) and the {@code Initialized}, {@code Ready} and {@code ContainersReady} conditions.
 */
final class JobPodStatus {
  private static final ObjectMapper JSON = new ObjectMapper();

  private JobPodStatus() {
  }

  /** The pod's phase from its containers. */
  static String phase(List<JobContainer> init, List<JobContainer> main) {
    if (init.stream().anyMatch(c -> c.phase == JobContainer.Phase.TERMINATED && !c.succeeded())) {
      return "Failed";
    }
    if (!init.stream().allMatch(JobContainer::succeeded)) {
      return "Pending";
    }
    if (main.stream().allMatch(c -> c.phase == JobContainer.Phase.TERMINATED)) {
      return main.stream().allMatch(JobContainer::succeeded) ? "Succeeded" : "Failed";
    }
    return main.stream().anyMatch(c -> c.phase != JobContainer.Phase.WAITING) ? "Running" : "Pending";
  }

  /**
   * A strategic-merge patch of the pod's status (conditions merge by type; container statuses are replaced).
   *
   * @param since when each condition type last changed status (kept by the caller; updated here)
   */
  static String patch(List<JobContainer> init, List<JobContainer> main, Map<String, Transition> since,
      Instant now) {
    String phase = phase(init, main);
    ObjectNode status = JSON.createObjectNode().put("phase", phase);
    ObjectNode root = JSON.createObjectNode().set("status", status);
    ArrayNode conditions = status.putArray("conditions");
    List<String> notInitialized = init.stream().filter(c -> !c.succeeded()).map(JobContainer::name).toList();
    condition(conditions, since, now, "PodReadyToStartContainers", true, null, null);
    condition(conditions, since, now, "Initialized", notInitialized.isEmpty(), "ContainersNotInitialized",
        "containers with incomplete status: " + notInitialized);
    List<String> unready = main.stream().filter(c -> c.phase != JobContainer.Phase.RUNNING)
        .map(JobContainer::name).toList();
    boolean ready = unready.isEmpty() && "Running".equals(phase);
    String why = "Succeeded".equals(phase) ? "PodCompleted" : "ContainersNotReady";
    String text = "Succeeded".equals(phase) ? null : "containers with unready status: " + unready;
    condition(conditions, since, now, "ContainersReady", ready, why, text);
    condition(conditions, since, now, "Ready", ready, why, text);
    statuses(status.putArray("initContainerStatuses"), init);
    statuses(status.putArray("containerStatuses"), main);
    return root.toString();
  }

  /** When a condition type took its status. */
  record Transition(boolean status, Instant at) {
  }

  private static void condition(ArrayNode conditions, Map<String, Transition> since, Instant now, String type,
      boolean value, String reason, String message) {
    Transition t = since.get(type);
    if (t == null || t.status() != value) {
      t = new Transition(value, now);
      since.put(type, t);
    }
    ObjectNode c = conditions.addObject().put("type", type).put("status", value ? "True" : "False")
        .put("lastTransitionTime", t.at().toString());
    if (value) {
      c.putNull("reason").putNull("message");
    } else {
      c.put("reason", reason).put("message", message);
    }
  }

  private static void statuses(ArrayNode out, List<JobContainer> containers) {
    for (JobContainer c : containers) {
      boolean running = c.phase == JobContainer.Phase.RUNNING;
      boolean ready = c.init ? c.succeeded() : running;
      ObjectNode s = out.addObject().put("name", c.name()).put("image", c.spec.getImage()).put("imageID", "")
          .put("ready", ready).put("started", running).put("restartCount", 0);
      ObjectNode state = s.putObject("state");
      switch (c.phase) {
        case WAITING -> {
          ObjectNode w = state.putObject("waiting").put("reason", c.waitingReason);
          if (c.waitingMessage != null) {
            w.put("message", c.waitingMessage);
          }
        }
        case RUNNING -> state.putObject("running").put("startedAt", c.startedAt.toString());
        case TERMINATED -> {
          ObjectNode t = state.putObject("terminated").put("exitCode", c.exitCode).put("reason", c.reason)
              .put("startedAt", c.startedAt.toString()).put("finishedAt", c.finishedAt.toString());
          if (c.message != null && !c.message.isEmpty()) {
            t.put("message", c.message);
          }
        }
        default -> throw new IllegalStateException(c.phase.toString());
      }
    }
  }
}
