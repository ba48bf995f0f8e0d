package dev.modelplane.cli.devcluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Job pod status through its life, as a kubelet writes it. */
class JobPodStatusTest {
  private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");
  private static final Instant T1 = Instant.parse("2026-11-26T10:01:00Z");
  private final JobContainer bench = new JobContainer(new ContainerBuilder().withName("benchmark")
      .withImage("genai-bench:0.1.113").build(), true);
  private final JobContainer results = new JobContainer(new ContainerBuilder().withName("results")
      .withImage("ghcr.io/modelplane/modelplane:1").withArgs("bench", "summarize").build(), false);
  private final Map<String, JobPodStatus.Transition> since = new HashMap<>();

  private JsonNode status(Instant now) throws Exception {
    return new ObjectMapper().readTree(JobPodStatus.patch(List.of(bench), List.of(results), since, now))
        .get("status");
  }

  private static JsonNode condition(JsonNode status, String type) {
    for (JsonNode c : status.get("conditions")) {
      if (type.equals(c.get("type").asText())) {
        return c;
      }
    }
    throw new AssertionError(type);
  }

  @Test
  void pendingWhileTheInitContainerRunsThenRunningThenSucceeded() throws Exception {
    bench.running(null, T0);
    JsonNode s = status(T0);
    assertThat(s.get("phase").asText()).isEqualTo("Pending");
    assertThat(s.at("/initContainerStatuses/0/state/running/startedAt").asText()).isEqualTo("2026-11-26T10:00:00Z");
    assertThat(s.at("/initContainerStatuses/0/started").asBoolean()).isTrue();
    assertThat(s.at("/containerStatuses/0/state/waiting/reason").asText()).isEqualTo("PodInitializing");
    assertThat(condition(s, "Initialized").get("status").asText()).isEqualTo("False");
    assertThat(condition(s, "Initialized").get("message").asText())
        .isEqualTo("containers with incomplete status: [benchmark]");

    bench.terminated(0, null, "", T1);
    results.running(null, T1);
    s = status(T1);
    assertThat(s.get("phase").asText()).isEqualTo("Running");
    assertThat(s.at("/initContainerStatuses/0/state/terminated/reason").asText()).isEqualTo("Completed");
    assertThat(s.at("/initContainerStatuses/0/ready").asBoolean()).isTrue();
    assertThat(s.at("/initContainerStatuses/0/state/terminated").has("message")).isFalse();
    assertThat(condition(s, "Initialized").get("status").asText()).isEqualTo("True");
    assertThat(condition(s, "Initialized").get("lastTransitionTime").asText()).isEqualTo("2026-11-26T10:01:00Z");
    assertThat(condition(s, "Ready").get("status").asText()).isEqualTo("True");
    assertThat(s.at("/containerStatuses/0/ready").asBoolean()).isTrue();

    results.terminated(0, null, "{\"r\":[]}", T1.plusSeconds(2));
    s = status(T1.plusSeconds(5));
    assertThat(s.get("phase").asText()).isEqualTo("Succeeded");
    assertThat(s.at("/containerStatuses/0/state/terminated/exitCode").asInt()).isZero();
    assertThat(s.at("/containerStatuses/0/state/terminated/message").asText()).isEqualTo("{\"r\":[]}");
    assertThat(s.at("/containerStatuses/0/state/terminated/startedAt").asText()).isEqualTo("2026-11-26T10:01:00Z");
    assertThat(s.at("/containerStatuses/0/state/terminated/finishedAt").asText()).isEqualTo("2026-11-26T10:01:02Z");
    assertThat(s.at("/containerStatuses/0/ready").asBoolean()).isFalse();
    assertThat(condition(s, "Ready").get("reason").asText()).isEqualTo("PodCompleted");
    assertThat(condition(s, "PodReadyToStartContainers").get("lastTransitionTime").asText())
        .isEqualTo("2026-11-26T10:00:00Z");
  }

  @Test
  void aFailedInitContainerFailsThePodWithItsMessageAndTheContainersNeverStart() throws Exception {
    bench.running(null, T0);
    bench.terminated(2, null, "Error: Invalid value for '--task'", T1);
    JsonNode s = status(T1);
    assertThat(s.get("phase").asText()).isEqualTo("Failed");
    assertThat(s.at("/initContainerStatuses/0/state/terminated/exitCode").asInt()).isEqualTo(2);
    assertThat(s.at("/initContainerStatuses/0/state/terminated/reason").asText()).isEqualTo("Error");
    assertThat(s.at("/initContainerStatuses/0/state/terminated/message").asText())
        .isEqualTo("Error: Invalid value for '--task'");
    assertThat(s.at("/containerStatuses/0/state/waiting/reason").asText()).isEqualTo("PodInitializing");
    assertThat(condition(s, "Ready").get("reason").asText()).isEqualTo("ContainersNotReady");
  }

  @Test
  void aFailedContainerFailsThePodAndWaitingOnesAreStillPending() {
    JobContainer other = new JobContainer(new ContainerBuilder().withName("side").withImage("busybox").build(),
        false);
    assertThat(JobPodStatus.phase(List.of(), List.of(results, other))).isEqualTo("Pending");
    results.running(null, T0);
    assertThat(JobPodStatus.phase(List.of(), List.of(results, other))).isEqualTo("Running");
    other.terminated(0, null, null, T0);
    results.terminated(1, null, "no results", T1);
    assertThat(JobPodStatus.phase(List.of(), List.of(results, other))).isEqualTo("Failed");
    results.terminated(128, "StartError", "genai-bench could not be installed", T1);
    assertThat(results.reason).isEqualTo("StartError");
  }
}
