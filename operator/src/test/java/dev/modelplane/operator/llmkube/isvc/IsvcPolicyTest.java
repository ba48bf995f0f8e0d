package dev.modelplane.operator.llmkube.isvc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.operator.common.WorkloadPolicy;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class IsvcPolicyTest {
  private static List<String> fields(String isvcSpec, String modelSpec) {
    ServingPlan plan = Plans.plan(isvcSpec, modelSpec);
    return IsvcPolicy.violations(plan, IsvcObjects.build(plan, null)).stream().map(WorkloadPolicy.Violation::field)
        .toList();
  }

  @Test
  void aPlainServiceAndAStagedHostDirectoryPass() {
    assertThat(fields("modelRef: m", Plans.HTTPS_MODEL)).isEmpty();
    // The Model's directory on the node is the operator's own volume (the Model reconciler allowed its root).
    assertThat(fields("modelRef: m", "source: /mnt/models/llama.gguf\nsha256: " + "ab".repeat(32) + "\n")).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "securityContext: {privileged: true}|spec.securityContext.privileged",
      "securityContext: {runAsUser: 0}|spec.securityContext.runAsUser",
      "securityContext: {capabilities: {add: [SYS_ADMIN]}}|spec.securityContext.capabilities.add[SYS_ADMIN]",
      "securityContext: {allowPrivilegeEscalation: true}|spec.securityContext.allowPrivilegeEscalation",
      "podSecurityContext: {runAsUser: 0}|spec.podSecurityContext.runAsUser",
      "podSecurityContext: {runAsNonRoot: false}|spec.podSecurityContext.runAsNonRoot",
      "extraVolumes: [{name: host, hostPath: {path: /}}]|spec.extraVolumes[host].hostPath",
      "podAnnotations: {container.apparmor.security.beta.kubernetes.io/llama-server: unconfined}"
          + "|spec.podAnnotations[container.apparmor.security.beta.kubernetes.io/llama-server]",
      "endpoint: {type: NodePort, nodePort: 30080}|spec.endpoint.type",
      "endpoint: {type: LoadBalancer}|spec.endpoint.type",
  })
  void theRefusedFieldIsNamedAsTheInferenceServiceSpellsIt(String extra, String field) {
    assertThat(fields("modelRef: m\n" + extra + "\n", Plans.HTTPS_MODEL)).contains(field);
  }

  @Test
  void aWritableExtraMountOfTheStagedModelDirectoryIsRefused() {
    String model = "source: /mnt/models/llama.gguf\n";
    ServingPlan plan = Plans.plan("modelRef: m", model);
    String volume = ModelStagingBuilder.of(plan).volumes().getFirst().getName();
    assertThat(fields("modelRef: m\nextraVolumeMounts: [{name: " + volume + ", mountPath: /w}]\n", model))
        .containsExactly("spec.extraVolumeMounts[/w]");
  }
}
