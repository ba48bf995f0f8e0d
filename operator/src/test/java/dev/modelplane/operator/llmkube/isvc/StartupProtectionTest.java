package dev.modelplane.operator.llmkube.isvc;

import static dev.modelplane.operator.TestObjects.isvc;
import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.llmkube.v1alpha1.InferenceServiceSpec;
import dev.modelplane.operator.llmkube.isvc.StartupProtection.Change;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StartupProtectionTest {
  private static final String DND = "karpenter.sh/do-not-disrupt";

  private static Pod pod(String name, boolean ready, Map<String, String> annotations) {
    return new PodBuilder().withNewMetadata().withName(name).withAnnotations(new LinkedHashMap<>(annotations))
        .endMetadata().withNewStatus().withPhase(ready ? "Running" : "Pending").addNewCondition().withType("Ready")
        .withStatus(ready ? "True" : "False").endCondition().endStatus().build();
  }

  private static Map<String, String> marked() {
    return Map.of(DND, "true", StartupProtection.MARKER, "true");
  }

  private static InferenceServiceSpec spec(String extra) {
    return isvc("modelRef: m\n" + extra).getSpec();
  }

  @Test
  void byDefaultPodsAreProtectedUntilReadyThenReleased() {
    List<Pod> pods = List.of(
        pod("starting", false, Map.of()),
        pod("now-ready", true, marked()),
        pod("still-starting", false, marked()),
        pod("ready", true, Map.of()));
    assertThat(StartupProtection.changes(spec(""), pods))
        .containsExactly(new Change("starting", true), new Change("now-ready", false));
  }

  @Test
  void aValueFromTheTemplateIsNeverTouched() {
    List<Pod> pods = List.of(pod("user-false", false, Map.of(DND, "false")), pod("user-true", true,
        Map.of(DND, "true")));
    assertThat(StartupProtection.changes(spec(""), pods)).isEmpty();
  }

  @Test
  void turningItOffReleasesOnlyWhatTheControllerAdded() {
    List<Pod> pods = List.of(pod("marked", false, marked()), pod("plain", false, Map.of()));
    assertThat(StartupProtection.changes(spec("disruption: {protectStartup: false}"), pods))
        .containsExactly(new Change("marked", false));
    // protectAlways puts the annotation on the template instead; the per-pod marker is then released.
    assertThat(StartupProtection.changes(spec("disruption: {protectAlways: true}"), pods))
        .containsExactly(new Change("marked", false));
    assertThat(StartupProtection.enabled(spec("disruption: {protectStartup: true}"))).isTrue();
    assertThat(StartupProtection.enabled(spec(""))).isTrue();
  }

  @Test
  void finishedAndTerminatingPodsAreSkipped() {
    Pod done = pod("done", false, Map.of());
    done.getStatus().setPhase("Failed");
    Pod leaving = pod("leaving", false, Map.of());
    leaving.getMetadata().setDeletionTimestamp("2026-11-22T10:00:00Z");
    assertThat(StartupProtection.changes(spec(""), List.of(done, leaving))).isEmpty();
  }
}
